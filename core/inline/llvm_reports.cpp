#include "inline/llvm_reports.hpp"

#include "base/error.hpp"
#include "base/text_scan.hpp"

namespace sysgym::inlining {
namespace {

// "Key: -12" (a counter line of either printer) as (Key, -12); false for anything else.
bool counter_line(std::string_view line, std::string& key, std::int64_t& value) {
  line = trim(line);
  const std::size_t colon = line.find(": ");
  if (colon == std::string_view::npos || colon == 0) return false;
  for (char c : line.substr(0, colon)) {
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return false;
  }
  std::string_view digits = line.substr(colon + 2);
  const bool negative = digits.starts_with("-");
  if (negative) digits.remove_prefix(1);
  std::uint64_t n = 0;
  if (!parse_decimal(digits, n)) return false;
  key.assign(line.substr(0, colon));
  value = negative ? -static_cast<std::int64_t>(n) : static_cast<std::int64_t>(n);
  return true;
}

}  // namespace

std::int64_t count_of(const NamedCounts& counts, std::string_view name, std::int64_t fallback) {
  for (const auto& [key, value] : counts) {
    if (key == name) return value;
  }
  return fallback;
}

void InlineCostReader::line(std::string_view line) {
  constexpr std::string_view kStart = "Analyzing call of ";
  const std::string_view t = trim(line);
  if (t.starts_with(kStart)) {
    const std::size_t dots = t.rfind("... (caller:");
    if (dots == std::string_view::npos || !t.ends_with(")")) return;
    InlineCostRecord r;
    r.callee.assign(t.substr(kStart.size(), dots - kStart.size()));
    const std::size_t caller = dots + 12;
    r.caller.assign(t.substr(caller, t.size() - 1 - caller));
    records_.push_back(std::move(r));
    return;
  }
  // Counter lines are indented by six spaces; the callee's annotated body by two.
  std::string key;
  std::int64_t value = 0;
  if (!records_.empty() && line.starts_with("      ") && counter_line(line, key, value))
    records_.back().counts.emplace_back(std::move(key), value);
}

void FunctionPropertiesReader::line(std::string_view line) {
  constexpr std::string_view kStart = "Printing analysis results of CFA for function '";
  if (line.starts_with(kStart) && line.ends_with("':")) {
    records_.push_back(
        {std::string(line.substr(kStart.size(), line.size() - kStart.size() - 2)), {}});
    return;
  }
  std::string key;
  std::int64_t value = 0;
  if (!records_.empty() && counter_line(line, key, value))
    records_.back().counts.emplace_back(std::move(key), value);
}

std::vector<InlinedSite> read_inline_remarks(std::string_view text) {
  constexpr std::string_view kRemark = "remark: '", kInto = "' inlined into '",
                             kAt = " at callsite ";
  std::vector<InlinedSite> out;
  LineCursor cursor(text);
  std::string_view line;
  while (cursor.next(line)) {
    const std::size_t remark = line.find(kRemark);
    const std::size_t into = line.find(kInto);
    if (remark == std::string_view::npos || into == std::string_view::npos || into < remark)
      continue;
    const std::size_t caller = into + kInto.size();
    const std::size_t caller_end = line.find('\'', caller);
    const std::size_t at = line.find(kAt, caller);
    const std::size_t end = line.find(';', at);
    if (caller_end == std::string_view::npos || at == std::string_view::npos ||
        end == std::string_view::npos)
      continue;
    const std::size_t callee = remark + kRemark.size();
    out.push_back({std::string(line.substr(callee, into - callee)),
                   std::string(line.substr(caller, caller_end - caller)),
                   std::string(line.substr(at + kAt.size(), end - at - kAt.size()))});
  }
  return out;
}

std::vector<std::pair<std::string, std::int64_t>> read_function_sizes(std::string_view text) {
  std::vector<std::pair<std::string, std::int64_t>> out;
  LineCursor cursor(text);
  std::string_view line;
  while (cursor.next(line)) {
    // "ADDRESS SIZE TYPE NAME"
    const std::size_t a = line.find(' ');
    const std::size_t b = a == std::string_view::npos ? a : line.find(' ', a + 1);
    if (b == std::string_view::npos || b + 3 > line.size() || line[b + 2] != ' ') continue;
    const char type = line[b + 1];
    std::uint64_t size = 0;
    if ((type != 't' && type != 'T') || !parse_hex(line.substr(a + 1, b - a - 1), size)) continue;
    out.emplace_back(std::string(line.substr(b + 3)), static_cast<std::int64_t>(size));
  }
  return out;
}

std::int64_t read_text_bytes(std::string_view text, const std::string& what) {
  LineCursor cursor(text);
  std::string_view line;
  bool header = false;
  std::int64_t total = 0;
  while (cursor.next(line)) {
    const std::string_view t = trim(line);
    if (t.starts_with("text") && t.find("data") != std::string_view::npos) {
      header = true;
      continue;
    }
    if (!header || t.empty()) continue;
    const std::size_t space = t.find_first_of(" \t");
    std::uint64_t bytes = 0;
    if (!parse_decimal(t.substr(0, space), bytes))
      throw TraceFormatError(what + ": llvm-size printed " + excerpt(t) +
                             " where a row of sizes belongs");
    total += static_cast<std::int64_t>(bytes);
  }
  if (!header) throw TraceFormatError(what + ": no llvm-size table (text data bss dec hex)");
  return total;
}

}  // namespace sysgym::inlining
