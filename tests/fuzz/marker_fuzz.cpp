// `sysgym memtier trace` markers: the first input line is a --phase-marker pattern, the second a
// --keep-phases pattern, the rest the traced program's output. Whatever the pattern and the
// lines, matching ends (RE2: linear time, no recursion) with a phase name taken from the line.
#include <cstdlib>

#include "families/memtier/marker_matcher.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym;
  std::string_view text = fuzz::text(data, size);
  auto next_line = [&] {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    return std::string(line);
  };
  const std::string phase = next_line();
  const std::string keep = next_line();
  fuzz::expecting_errors([&] {
    const cli::MarkerMatcher matcher({phase, keep, ""});
    while (!text.empty()) {
      const std::string line = next_line();
      const cli::MarkerMatch m = matcher.match(line);
      if (m.phase && m.phase->size() > line.size()) std::abort();  // a name not from the line
    }
  });
  return 0;
}
