// One entry point for every trace format: the format is recognised from the bytes, not the file
// name (binary magic; a CSV header naming Vaddr; perf script sample lines).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "base/progress.hpp"
#include "memtier/traces/trace.hpp"

namespace sysgym::memtier {

enum class TraceFormat { kBinary, kCsv, kPerfScript };

const char* trace_format_name(TraceFormat format);
// Throws TraceFormatError for an empty or unrecognised file.
TraceFormat detect_trace_format(std::span<const std::uint8_t> bytes, const std::string& source);
// Any format; throws TraceFormatError.
Trace load_trace(std::span<const std::uint8_t> bytes, std::string source,
                 const ProgressFn& progress = {});

}  // namespace sysgym::memtier
