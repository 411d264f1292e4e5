#include "memtier/traces/perf_reader.hpp"

#include <algorithm>

#include <vector>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/text_scan.hpp"

namespace sysgym::memtier {
namespace {


std::vector<std::string_view> split_whitespace(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
      ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t')
      ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

// "12345.678901:" -> nanoseconds. Accepts 1 to 9 fractional digits.
enum class TimeToken { kNotATime, kTime, kTooLarge };

constexpr std::uint64_t kMaxSeconds = UINT64_MAX / 1000000000ull - 1;

TimeToken parse_time_token(std::string_view token, std::uint64_t& ns) {
  if (token.size() < 4 || token.back() != ':') return TimeToken::kNotATime;
  token.remove_suffix(1);
  const std::size_t dot = token.find('.');
  if (dot == std::string_view::npos || dot == 0) return TimeToken::kNotATime;
  const std::string_view whole = token.substr(0, dot);
  const std::string_view fraction = token.substr(dot + 1);
  if (fraction.empty() || fraction.size() > 9) return TimeToken::kNotATime;
  std::uint64_t seconds = 0;
  std::uint64_t sub = 0;
  if (!parse_decimal(fraction, sub)) return TimeToken::kNotATime;
  if (!parse_decimal(whole, seconds)) {
    const bool digits =
        std::all_of(whole.begin(), whole.end(), [](char c) { return c >= '0' && c <= '9'; });
    return digits ? TimeToken::kTooLarge : TimeToken::kNotATime;  // more than 2^64 seconds
  }
  for (std::size_t digits = fraction.size(); digits < 9; ++digits)
    sub *= 10;
  if (seconds > kMaxSeconds) return TimeToken::kTooLarge;
  ns = seconds * 1000000000ull + sub;
  return TimeToken::kTime;
}

AccessKind parse_access_kind(std::string_view line) {
  const std::size_t op = line.find("|OP ");
  if (op == std::string_view::npos) return AccessKind::kUnknown;
  const std::string_view rest = line.substr(op + 4);
  if (rest.substr(0, 4) == "LOAD") return AccessKind::kLoad;
  if (rest.substr(0, 5) == "STORE") return AccessKind::kStore;
  return AccessKind::kUnknown;
}

}  // namespace

bool looks_like_perf_sample(std::string_view line) {
  std::uint64_t ns = 0;
  for (std::string_view token : split_whitespace(line)) {
    if (parse_time_token(token, ns) != TimeToken::kNotATime) return true;
  }
  return false;
}

Trace read_perf_script_trace(std::string_view text, std::string source,
                             const ProgressFn& progress) {
  Trace trace;
  trace.source = std::move(source);
  trace.time_base = TimeBase::kNanoseconds;
  LineCursor cursor(text);
  SampleOrderChecker checker;
  auto where = [&] { return trace.source + ":" + std::to_string(cursor.line_number()); };
  std::string_view line;
  bool any_access_kind = false;
  while (cursor.next(line)) {
    const std::string_view content = trim(line);
    if (content.empty() || content.front() == '#') continue;
    if (line.size() > kMaxLineBytes) throw_line_too_long(line.size(), where());
    const std::vector<std::string_view> tokens = split_whitespace(content);
    std::size_t t = 0;
    std::uint64_t ns = 0;
    TimeToken time = TimeToken::kNotATime;
    while (t < tokens.size() && (time = parse_time_token(tokens[t], ns)) == TimeToken::kNotATime)
      ++t;
    if (time == TimeToken::kTooLarge) {
      throw TraceFormatError(where() + ": time " + quote(tokens[t], 40) +
                             " is out of range: nanosecond timestamps end at " +
                             std::to_string(kMaxSeconds) + " s");
    }
    if (t == tokens.size()) {
      throw TraceFormatError(where() +
                             ": no time field 'SECONDS.FRACTION:' (expected `perf script -F "
                             "time,event,addr,weight,data_src` output)");
    }
    std::size_t a = t + 1;
    for (std::size_t k = t + 1; k < tokens.size(); ++k) {
      if (tokens[k].back() == ':') {
        a = k + 1;
        break;
      }
    }
    std::uint64_t address = 0;
    if (a >= tokens.size() || !parse_hex(tokens[a], address)) {
      throw TraceFormatError(where() + ": no data address after the " +
                             (a == t + 1 ? std::string("time") : std::string("event name")) +
                             " field (expected a hexadecimal addr field)" +
                             (a < tokens.size() ? ", got '" + excerpt(tokens[a]) + "'" : ""));
    }
    checker.check(ns, 0, nullptr, where);
    const AccessKind kind = parse_access_kind(content);
    any_access_kind = any_access_kind || kind != AccessKind::kUnknown;
    trace.timestamp.push_back(ns);
    trace.vaddr.push_back(address);
    trace.phase.push_back(0);
    trace.access.push_back(static_cast<std::uint8_t>(kind));
    if (progress && trace.size() % kProgressEveryRecords == 0) progress(cursor.offset(), text.size());
  }
  if (trace.empty()) throw TraceFormatError(trace.source + ": the file has no perf samples");
  if (!any_access_kind) trace.access.clear();
  check_span(trace);
  if (progress) progress(text.size(), text.size());
  return trace;
}

}  // namespace sysgym::memtier
