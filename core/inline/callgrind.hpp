// What valgrind's callgrind writes (run with --compress-strings=no --compress-pos=no, positions
// by line): the program's total instruction count, and how often each function called each
// other function from each source line. A call site's dynamic count comes from the latter: the
// line is the finest position callgrind gives, so calls of one callee from one line of one caller
// share their count (attach_calls splits it evenly). Levels of a recursion ("fib'2") count as the
// function itself.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>

namespace sysgym::inlining {

struct CallgrindProfile {
  double instructions = 0;  // "totals:" (or "summary:")
  // (caller, callee, line of the call) -> calls
  std::map<std::tuple<std::string, std::string, std::int64_t>, double> calls;
};

// Throws TraceFormatError naming `what` for text that is no uncompressed callgrind profile.
CallgrindProfile read_callgrind(std::string_view text, const std::string& what);

}  // namespace sysgym::inlining
