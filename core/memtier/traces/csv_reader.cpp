#include "memtier/traces/csv_reader.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstring>

#include "base/error.hpp"
#include "base/names.hpp"
#include "base/text_scan.hpp"
#include "memtier/traces/csv_writer.hpp"

namespace sysgym::memtier {
namespace {

enum Column { kTimestamp, kVaddr, kInstrs, kPhase, kIndex, kColumnCount };
constexpr std::array<const char*, kColumnCount> kColumnNames = {"Timestamp", "Vaddr", "Instrs",
                                                                "Phase", "Index"};

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
constexpr std::size_t kNamesShown = 16;  // header names quoted in an error

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
    if (found.size() < kNamesShown) found.push_back(excerpt(name));
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
    if (index > static_cast<int>(kNamesShown)) found.emplace_back("...");
    message += " (found: " + join(found, ", ") + "; expected MemAI columns " + join(wanted, ", ") +
               ", of which Timestamp and Vaddr are required)";
    throw TraceFormatError(message);
  }
  return position;
}

// Eight ASCII digits at p as a number, with three multiplications instead of eight dependent
// ones (the SWAR method: pairs, then quadruples, then the two halves).
std::uint64_t parse_eight_digits(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  v -= 0x3030303030303030ull;
  v = v * 10 + (v >> 8);
  v = (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
       (((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >>
      32;
  return v;
}

struct HexTable {
  std::array<std::uint8_t, 256> value{};
  constexpr HexTable() {
    for (auto& v : value)
      v = 0xFF;
    for (int c = 0; c < 10; ++c)
      value['0' + c] = static_cast<std::uint8_t>(c);
    for (int c = 0; c < 6; ++c) {
      value['a' + c] = static_cast<std::uint8_t>(10 + c);
      value['A' + c] = static_cast<std::uint8_t>(10 + c);
    }
  }
};
constexpr HexTable kHex;

// How many of the eight bytes at p are ASCII digits before the first that is not: one test per
// word instead of a branch per byte, whose exit the predictor missed on every field of varying
// length. A byte is a digit when its high nibble is 3 both as read and after adding 6 ('9' + 6 is
// '?', ':' + 6 is '@'). Only a byte of 0xFA or more carries into the next one, and it is not a
// digit itself, so the count is exact. Little-endian (x86, WebAssembly): byte 0 is the lowest.
std::size_t leading_digits(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  constexpr std::uint64_t kHigh = 0xF0F0F0F0F0F0F0F0ull;
  constexpr std::uint64_t kThrees = 0x3030303030303030ull;
  const std::uint64_t not_digit =
      ((v & kHigh) ^ kThrees) | (((v + 0x0606060606060606ull) & kHigh) ^ kThrees);
  return not_digit == 0 ? 8 : static_cast<std::size_t>(std::countr_zero(not_digit)) / 8;
}

// A plain field at p: digits (or 0x-hex for an address) ending at a delimiter (',', '\r', '\n')
// or at `bound`, read into `value`. Returns the position after it, or nullptr when the field is
// anything else. `text_end` ends the whole text: bytes up to it may be read ahead.
const char* parse_plain_field(const char* p, const char* bound, const char* text_end, bool address,
                              std::uint64_t& value) {
  const char* q = p;
  std::uint64_t v = 0;
  std::ptrdiff_t digits = 0;
  const bool hex = address && bound - q > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X');
  if (hex) {
    q += 2;
    const char* first = q;
    while (q < bound && kHex.value[static_cast<unsigned char>(*q)] != 0xFF) {
      v = (v << 4) | kHex.value[static_cast<unsigned char>(*q)];
      ++q;
    }
    digits = q - first;
  } else {
    // A run of digits stops at the line's end ('\n' is no digit), so reading ahead by words
    // never counts past it.
    if (text_end - q >= 16) {
      std::size_t run = leading_digits(q);
      if (run == 8) run += leading_digits(q + 8);
      q += run;
    }
    while (q < bound && static_cast<unsigned char>(*q - '0') < 10)
      ++q;
    digits = q - p;
    const char* d = p;
    for (; q - d >= 8; d += 8)
      v = v * 100000000ull + parse_eight_digits(d);
    for (; d < q; ++d)
      v = v * 10 + static_cast<std::uint64_t>(*d - '0');
  }
  const bool clean_end = q == bound || *q == ',' || *q == '\r' || *q == '\n';
  const std::ptrdiff_t max_digits = hex ? 16 : 19;
  if (digits == 0 || digits > max_digits || !clean_end) return nullptr;
  value = v;
  return q;
}

// Parses a field of the line [p, line_end): a plain one as above, anything else (spaces, quotes,
// junk, numbers long enough to overflow) trimmed, unquoted and checked with from_chars. Returns
// the position after the field.
const char* parse_field(const char* p, const char* line_end, const char* text_end, bool address,
                        std::uint64_t& value, bool& ok) {
  if (const char* q = parse_plain_field(p, line_end, text_end, address, value)) {
    ok = true;
    return q;
  }
  const char* field_end =
      static_cast<const char*>(std::memchr(p, ',', static_cast<std::size_t>(line_end - p)));
  if (field_end == nullptr) field_end = line_end;
  const std::string_view field =
      unquote(std::string_view(p, static_cast<std::size_t>(field_end - p)));
  ok = address ? parse_address(field, value) : parse_decimal(field, value);
  return field_end;
}

std::string_view field_text(const char* p, const char* line_end) {
  const char* end =
      static_cast<const char*>(std::memchr(p, ',', static_cast<std::size_t>(line_end - p)));
  return unquote(
      std::string_view(p, static_cast<std::size_t>((end == nullptr ? line_end : end) - p)));
}

// Rows are about as long as the first data rows; reserving from them avoids a counting pass.
std::size_t estimate_rows(std::string_view text, std::size_t header_end) {
  const std::size_t sample = std::min<std::size_t>(text.size() - header_end, 1 << 16);
  const auto lines = static_cast<std::size_t>(
      std::count(text.begin() + static_cast<std::ptrdiff_t>(header_end),
                 text.begin() + static_cast<std::ptrdiff_t>(header_end + sample), '\n'));
  if (lines == 0) return 1;
  return (text.size() - header_end) / (sample / lines) * 11 / 10 + 16;
}

}  // namespace

Trace read_csv_trace(std::string_view text, std::string source, const ProgressFn& progress) {
  Trace trace;
  trace.source = std::move(source);
  trace.time_base = TimeBase::kCycles;
  // A UTF-8 byte-order mark, as spreadsheet programs write, is not part of the first column name.
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  const std::size_t skipped = text.starts_with(kByteOrderMark) ? kByteOrderMark.size() : 0;
  text.remove_prefix(skipped);
  LineCursor cursor(text);
  std::string_view line;
  while (cursor.next(line)) {
    if (line.size() > kMaxLineBytes) {
      throw_line_too_long(line.size(), trace.source + ":" + std::to_string(cursor.line_number()));
    }
    if (line.starts_with(kCsvSetPrefix)) {
      trace.set_id = std::string(trim(line.substr(kCsvSetPrefix.size())));
      check_set_id(trace.set_id, trace.source + ":" + std::to_string(cursor.line_number()));
    }
    if (!trim(line).empty() && !line.starts_with('#')) break;
  }
  if (trim(line).empty() || line.starts_with('#'))
    throw TraceFormatError(trace.source + ": the file is empty");
  if (trim(line).find('\r') != std::string_view::npos) {
    throw TraceFormatError(
        trace.source + ":" + std::to_string(cursor.line_number()) +
        ": lines end in a bare carriage return (CR, old Mac style); sysgym reads "
        "LF or CRLF line endings (convert with: tr '\\r' '\\n')");
  }
  const auto position =
      parse_header(line, trace.source + ":" + std::to_string(cursor.line_number()));
  int last_column = 0;
  for (int p : position)
    last_column = std::max(last_column, p);
  std::vector<int> column_of_field(static_cast<std::size_t>(last_column) + 1, -1);
  for (int c = 0; c < kColumnCount; ++c) {
    if (position[c] >= 0) column_of_field[static_cast<std::size_t>(position[c])] = c;
  }

  const std::size_t expected = estimate_rows(text, cursor.offset());
  trace.timestamp.reserve(expected);
  trace.vaddr.reserve(expected);
  trace.phase.reserve(expected);
  const bool has_instrs = position[kInstrs] >= 0;
  const bool has_index = position[kIndex] >= 0;
  if (has_instrs) trace.instrs.reserve(expected);
  if (has_index) trace.index.reserve(expected);

  SampleOrderChecker checker;
  std::size_t line_number = cursor.line_number();
  auto where = [&] { return trace.source + ":" + std::to_string(line_number); };
  const char* p = text.data() + std::min(cursor.offset(), text.size());
  const char* const end = text.data() + text.size();
  // A row of plain fields that ends in '\n', "\r\n" or the text's end is read without first
  // searching for its end (a memchr per row was a tenth of the parse); any other row (blank,
  // quoted, spaced, extra fields, an error) is read again by the line-by-line path below.
  auto plain_row = [&](const char* q, std::array<std::uint64_t, kColumnCount>& value,
                       const char*& next) {
    for (int field = 0; field <= last_column; ++field) {
      if (field > 0) {
        if (q >= end || *q != ',') return false;
        ++q;
      }
      const int c = column_of_field[static_cast<std::size_t>(field)];
      if (c < 0) return false;
      q = parse_plain_field(q, end, end, c == kVaddr, value[c]);
      if (q == nullptr) return false;
    }
    if (q == end) {
      next = end;
    } else if (*q == '\n') {
      next = q + 1;
    } else if (*q == '\r' && end - q >= 2 && q[1] == '\n') {
      next = q + 2;
    } else {
      return false;
    }
    return true;
  };
  // Reads the line [p, line_end) into `value`, or throws the error that names what is wrong.
  auto parse_line = [&](const char* p, const char* line_end,
                        std::array<std::uint64_t, kColumnCount>& value) {
    const char* q = p;
    for (int field = 0; field <= last_column; ++field) {
      if (field > 0) {
        if (q >= line_end || *q != ',') {
          const int c = column_of_field[static_cast<std::size_t>(field)] >= 0
                            ? column_of_field[static_cast<std::size_t>(field)]
                            : *std::max_element(column_of_field.begin(), column_of_field.end());
          throw TraceFormatError(where() + ": the row has " + std::to_string(field) +
                                 " fields, column '" + kColumnNames[c] + "' is field " +
                                 std::to_string(position[c] + 1));
        }
        ++q;
      }
      const int c = column_of_field[static_cast<std::size_t>(field)];
      if (c < 0) {
        const char* comma =
            static_cast<const char*>(std::memchr(q, ',', static_cast<std::size_t>(line_end - q)));
        q = comma == nullptr ? line_end : comma;
        continue;
      }
      bool ok = false;
      const char* after = parse_field(q, line_end, end, c == kVaddr, value[c], ok);
      if (!ok) {
        throw TraceFormatError(
            where() + ": column '" + kColumnNames[c] + "': '" + excerpt(field_text(q, line_end)) +
            "' is not " + (c == kVaddr ? "an address (decimal or 0x-hex)" : "an unsigned integer"));
      }
      q = after;
    }
  };
  while (p < end) {
    ++line_number;
    std::array<std::uint64_t, kColumnCount> value{};
    const char* next = nullptr;
    if (!plain_row(p, value, next)) {
      value = {};
      const char* newline =
          static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      const char* line_end = newline == nullptr ? end : newline;
      next = newline == nullptr ? end : newline + 1;
      if (static_cast<std::size_t>(line_end - p) > kMaxLineBytes) {
        throw_line_too_long(static_cast<std::size_t>(line_end - p), where());
      }
      if (trim(std::string_view(p, static_cast<std::size_t>(line_end - p))).empty()) {
        p = next;
        continue;
      }
      parse_line(p, line_end, value);
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
    if (progress && trace.size() % kProgressEveryRecords == 0) {
      progress(static_cast<std::uint64_t>(next - text.data()), text.size());
    }
    p = next;
  }
  if (trace.empty()) {
    throw TraceFormatError(trace.source + ": the file has a header but no samples");
  }
  check_span(trace);
  if (progress) progress(text.size(), text.size());
  return trace;
}

}  // namespace sysgym::memtier
