#include "memtier/traces/load.hpp"

#include <string_view>

#include "base/container.hpp"
#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/text_scan.hpp"
#include "memtier/traces/csv_reader.hpp"
#include "memtier/traces/perf_reader.hpp"
#include "memtier/traces/trace_file.hpp"

namespace sysgym::memtier {
namespace {

constexpr std::size_t kSniffLines = 64;

std::string_view as_text(std::span<const std::uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

bool contains_ignoring_case(std::string_view text, std::string_view word) {
  for (std::size_t i = 0; i + word.size() <= text.size(); ++i) {
    bool match = true;
    for (std::size_t k = 0; k < word.size() && match; ++k) {
      match = (text[i + k] | 0x20) == (word[k] | 0x20);
    }
    if (match) return true;
  }
  return false;
}

}  // namespace

const char* trace_format_name(TraceFormat format) {
  switch (format) {
    case TraceFormat::kBinary:
      return "sysgym binary";
    case TraceFormat::kCsv:
      return "MemAI CSV";
    case TraceFormat::kPerfScript:
      return "perf script";
  }
  return "?";
}

TraceFormat detect_trace_format(std::span<const std::uint8_t> bytes, const std::string& source) {
  if (has_container_magic(bytes)) return TraceFormat::kBinary;
  if (const std::string kind = json_file_kind(bytes); !kind.empty()) {
    throw TraceFormatError(source + ": " + kind +
                           ", not a trace (memtier reads MemAI CSV, `perf script` output and "
                           "sysgym binary traces)");
  }
  LineCursor cursor(as_text(bytes));
  std::string_view line;
  for (std::size_t seen = 0; seen < kSniffLines && cursor.next(line);) {
    line = trim(line);
    if (line.empty() || line.front() == '#') continue;
    ++seen;
    if (line.find(',') != std::string_view::npos && contains_ignoring_case(line, "vaddr")) {
      return TraceFormat::kCsv;
    }
    if (looks_like_perf_sample(line)) return TraceFormat::kPerfScript;
    if (seen == 1 && line.find(',') != std::string_view::npos) return TraceFormat::kCsv;
  }
  if (trim(as_text(bytes)).empty()) throw TraceFormatError(source + ": the file is empty");
  throw TraceFormatError(source +
                         ": not a recognised trace (expected a MemAI CSV header with Timestamp "
                         "and Vaddr columns, `perf script` sample lines, or a sysgym binary file)");
}

Trace load_trace(std::span<const std::uint8_t> bytes, std::string source,
                 const ProgressFn& progress) {
  switch (detect_trace_format(bytes, source)) {
    case TraceFormat::kBinary:
      return decode_trace(ContainerReader(bytes, std::move(source)));
    case TraceFormat::kCsv:
      return read_csv_trace(as_text(bytes), std::move(source), progress);
    case TraceFormat::kPerfScript:
      return read_perf_script_trace(as_text(bytes), std::move(source), progress);
  }
  throw TraceFormatError(source + ": unknown format");
}

}  // namespace sysgym::memtier
