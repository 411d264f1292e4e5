#include "marker_matcher.hpp"

#include <re2/re2.h>

#include "base/error.hpp"
#include "base/quote.hpp"

namespace sysgym::cli {
namespace {

// RE2 falls back to a slower but still linear engine past its memory budget: 64 MiB bounds a
// hostile pattern's automaton without limiting any sensible marker.
constexpr std::int64_t kMaxPatternMemory = 64 << 20;

std::unique_ptr<re2::RE2> compile(const std::string& pattern, const char* flag) {
  if (pattern.empty()) return nullptr;
  RE2::Options options;
  options.set_log_errors(false);
  options.set_max_mem(kMaxPatternMemory);
  auto re = std::make_unique<re2::RE2>(pattern, options);
  if (!re->ok()) {
    throw ConfigError(std::string(flag) + " " + quote(pattern) +
                      " is not a valid regular expression (" + printable(re->error()) +
                      "; the syntax is RE2's: no backreferences or lookaround)");
  }
  return re;
}

}  // namespace

MarkerMatcher::MarkerMatcher(const MarkerPatterns& patterns)
    : phase_(compile(patterns.phase, "--phase-marker")),
      keep_(compile(patterns.keep, "--keep-phases")),
      stop_(compile(patterns.stop, "--stop-marker")) {}

MarkerMatcher::~MarkerMatcher() = default;

bool MarkerMatcher::keeps(std::string_view name) const {
  return keep_ == nullptr || RE2::PartialMatch(name, *keep_);
}

MarkerMatch MarkerMatcher::match(std::string_view line) const {
  MarkerMatch out;
  const re2::StringPiece text(line.data(), line.size());
  if (stop_ && RE2::PartialMatch(text, *stop_)) {
    out.stop = true;
    return out;
  }
  if (!phase_) return out;
  // Group 1 names the phase when the pattern has one and it took part in the match.
  re2::StringPiece groups[2];
  const int wanted = phase_->NumberOfCapturingGroups() >= 1 ? 2 : 1;
  if (!phase_->Match(text, 0, text.size(), RE2::UNANCHORED, groups, wanted)) return out;
  const re2::StringPiece name = wanted == 2 && groups[1].data() != nullptr ? groups[1] : groups[0];
  out.phase = std::string(name.data(), name.size());
  out.keep = keeps(*out.phase);
  return out;
}

}  // namespace sysgym::cli
