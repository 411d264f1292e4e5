// Phase and stop markers in a traced program's output, matched with RE2: linear time in the
// line's length and no recursion, whatever the pattern (std::regex crashed on a 300 KB line
// with '.*' and took minutes on marker-heavy output). Lines reach here at most kMaxLineBytes
// long (longer ones arrive in pieces), so one line costs at most a few milliseconds.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace re2 {
class RE2;
}

namespace sysgym::cli {

struct MarkerPatterns {
  std::string phase;  // a line matching starts a phase, named by group 1 or the whole match
  std::string keep;   // phases whose name matches are kept ("" keeps all)
  std::string stop;   // a line matching ends the capture
};

struct MarkerMatch {
  bool stop = false;
  std::optional<std::string> phase;  // the new phase's name
  bool keep = true;                  // whether that phase is kept
};

class MarkerMatcher {
 public:
  // Throws ConfigError naming the flag (--phase-marker, --keep-phases, --stop-marker) of a
  // pattern RE2 does not accept (RE2 syntax: no backreferences or lookaround).
  explicit MarkerMatcher(const MarkerPatterns& patterns);
  ~MarkerMatcher();
  MarkerMatcher(const MarkerMatcher&) = delete;
  MarkerMatcher& operator=(const MarkerMatcher&) = delete;

  MarkerMatch match(std::string_view line) const;
  // Whether a phase named `name` is kept.
  bool keeps(std::string_view name) const;
  bool has_phase_marker() const { return phase_ != nullptr; }

 private:
  std::unique_ptr<re2::RE2> phase_, keep_, stop_;
};

}  // namespace sysgym::cli
