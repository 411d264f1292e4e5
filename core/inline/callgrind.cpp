#include "inline/callgrind.hpp"

#include "base/error.hpp"
#include "base/text_scan.hpp"

namespace sysgym::inlining {
namespace {

bool first_number(std::string_view s, double& out) {
  s = trim(s);
  const std::size_t end = s.find_first_of(" \t");
  std::uint64_t n = 0;
  if (!parse_decimal(s.substr(0, end), n)) return false;
  out = static_cast<double>(n);
  return true;
}

// Callgrind names the second and deeper levels of a recursion "fib'2", "fib'3".
std::string function_name(std::string_view s) {
  const std::size_t quote = s.rfind('\'');
  if (quote != std::string_view::npos && quote + 1 < s.size() &&
      s.find_first_not_of("0123456789", quote + 1) == std::string_view::npos)
    s = s.substr(0, quote);
  return std::string(s);
}

}  // namespace

CallgrindProfile read_callgrind(std::string_view text, const std::string& what) {
  CallgrindProfile p;
  LineCursor cursor(text);
  std::string_view line;
  std::string fn, cfn;
  bool header = false, totals = false;
  double pending_calls = -1;  // a calls= line waits for its position line
  while (cursor.next(line)) {
    if (line.starts_with("events:")) header = true;
    if (pending_calls >= 0) {
      double position = 0;
      if (!first_number(line, position))
        throw TraceFormatError(what + " line " + std::to_string(cursor.line_number()) +
                               ": no source line after calls= (was callgrind run with "
                               "--compress-pos=no?)");
      p.calls[{fn, cfn, static_cast<std::int64_t>(position)}] += pending_calls;
      pending_calls = -1;
      continue;
    }
    if (line.starts_with("fn=")) {
      fn = function_name(line.substr(3));
    } else if (line.starts_with("cfn=")) {
      cfn = function_name(line.substr(4));
    } else if (line.starts_with("calls=")) {
      if (!first_number(line.substr(6), pending_calls))
        throw TraceFormatError(what + " line " + std::to_string(cursor.line_number()) +
                               ": calls= without a count");
    } else if (line.starts_with("totals:") || (!totals && line.starts_with("summary:"))) {
      totals = first_number(line.substr(line.find(':') + 1), p.instructions);
    }
    if ((line.starts_with("fn=(") || line.starts_with("cfn=(")) && !line.ends_with(")"))
      throw TraceFormatError(what +
                             ": compressed names; run callgrind with "
                             "--compress-strings=no");
  }
  if (!header || !totals)
    throw TraceFormatError(what + ": not a callgrind profile (no 'events:' and 'totals:' lines)");
  return p;
}

}  // namespace sysgym::inlining
