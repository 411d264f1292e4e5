#include "traces/csv_reader.hpp"

#include <array>
#include <cctype>

#include "base/error.hpp"
#include "base/names.hpp"
#include "traces/text_scan.hpp"

namespace sysgym::memtier {
namespace {

enum Column { kTimestamp, kVaddr, kInstrs, kPhase, kIndex, kColumnCount };
constexpr std::array<const char*, kColumnCount> kColumnNames = {"Timestamp", "Vaddr", "Instrs",
                                                                "Phase", "Index"};
constexpr std::size_t kProgressEvery = 1 << 16;

bool same_name(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view unquote(std::string_view field) {
  field = trim(field);
  if (field.size() >= 2 && field.front() == '"' && field.back() == '"') {
    field = field.substr(1, field.size() - 2);
  }
  return field;
}

// Position of each known column in the header, -1 when absent.
std::array<int, kColumnCount> parse_header(std::string_view header, const std::string& where) {
  std::array<int, kColumnCount> position;
  position.fill(-1);
  std::vector<std::string> found;
  int index = 0;
  std::size_t start = 0;
  while (start <= header.size()) {
    std::size_t comma = header.find(',', start);
    if (comma == std::string_view::npos) comma = header.size();
    const std::string_view name = unquote(header.substr(start, comma - start));
    found.emplace_back(name);
    for (int c = 0; c < kColumnCount; ++c) {
      if (same_name(name, kColumnNames[c]) && position[c] < 0) position[c] = index;
    }
    ++index;
    start = comma + 1;
  }
  for (Column required : {kTimestamp, kVaddr}) {
    if (position[required] >= 0) continue;
    std::string message = where + ": the header has no '" + kColumnNames[required] + "' column";
    const std::vector<std::string> wanted(kColumnNames.begin(), kColumnNames.end());
    message += " (found: " + join(found, ", ") + "; expected MemAI columns " + join(wanted, ", ") +
               ", of which Timestamp and Vaddr are required)";
    throw TraceFormatError(message);
  }
  return position;
}

}  // namespace

Trace read_csv_trace(std::string_view text, std::string source, const ProgressFn& progress) {
  Trace trace;
  trace.source = std::move(source);
  trace.time_base = TimeBase::kCycles;
  LineCursor cursor(text);
  std::string_view line;
  while (cursor.next(line) && trim(line).empty()) {
  }
  if (trim(line).empty()) throw TraceFormatError(trace.source + ": the file is empty");
  const auto position = parse_header(line, trace.source + ":" + std::to_string(cursor.line_number()));
  int last_column = 0;
  for (int p : position) last_column = std::max(last_column, p);

  const std::size_t expected = count_lines(text);
  trace.timestamp.reserve(expected);
  trace.vaddr.reserve(expected);
  trace.phase.reserve(expected);
  const bool has_instrs = position[kInstrs] >= 0;
  const bool has_index = position[kIndex] >= 0;
  if (has_instrs) trace.instrs.reserve(expected);
  if (has_index) trace.index.reserve(expected);

  SampleOrderChecker checker;
  std::array<std::string_view, kColumnCount> fields;
  auto where = [&] { return trace.source + ":" + std::to_string(cursor.line_number()); };
  while (cursor.next(line)) {
    if (trim(line).empty()) continue;
    fields.fill({});
    int index = 0;
    std::size_t start = 0;
    while (index <= last_column && start <= line.size()) {
      std::size_t comma = line.find(',', start);
      if (comma == std::string_view::npos) comma = line.size();
      for (int c = 0; c < kColumnCount; ++c) {
        if (position[c] == index) fields[c] = unquote(line.substr(start, comma - start));
      }
      ++index;
      start = comma + 1;
    }
    std::array<std::uint64_t, kColumnCount> value{};
    for (int c = 0; c < kColumnCount; ++c) {
      if (position[c] < 0) continue;
      if (index <= position[c]) {
        throw TraceFormatError(where() + ": the row has " + std::to_string(index) +
                               " fields, column '" + kColumnNames[c] + "' is field " +
                               std::to_string(position[c] + 1));
      }
      const bool ok = c == kVaddr ? parse_address(fields[c], value[c])
                                  : parse_decimal(fields[c], value[c]);
      if (!ok) {
        throw TraceFormatError(where() + ": column '" + kColumnNames[c] + "': '" +
                               std::string(fields[c]) + "' is not " +
                               (c == kVaddr ? "an address (decimal or 0x-hex)"
                                            : "an unsigned integer"));
      }
    }
    if (value[kPhase] > UINT32_MAX) {
      throw TraceFormatError(where() + ": column 'Phase': " + std::to_string(value[kPhase]) +
                             " is larger than " + std::to_string(UINT32_MAX));
    }
    const auto phase = static_cast<std::uint32_t>(value[kPhase]);
    const std::uint64_t instrs =
        checker.check(value[kTimestamp], phase, has_instrs ? &value[kInstrs] : nullptr, where);
    trace.timestamp.push_back(value[kTimestamp]);
    trace.vaddr.push_back(value[kVaddr]);
    trace.phase.push_back(phase);
    if (has_instrs) trace.instrs.push_back(instrs);
    if (has_index) trace.index.push_back(value[kIndex]);
    if (progress && trace.size() % kProgressEvery == 0) progress(cursor.offset(), text.size());
  }
  if (trace.empty()) {
    throw TraceFormatError(trace.source + ": the file has a header but no samples");
  }
  if (progress) progress(text.size(), text.size());
  return trace;
}

}  // namespace sysgym::memtier
