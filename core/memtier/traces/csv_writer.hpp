// Writes a trace as MemAI-column CSV (Timestamp,Instrs,Vaddr,Phase[,Index]); Vaddr in 0x-hex.
// The inverse of read_csv_trace for cycle-based traces.
#pragma once

#include <string>

#include "memtier/traces/trace.hpp"

namespace sysgym::memtier {

// A comment line before the CSV header naming the set of runs the file belongs to (see
// Trace::set_id); readers skip other lines that start with '#' before the header.
inline constexpr std::string_view kCsvSetPrefix = "# sysgym-set: ";

// Throws TraceFormatError for a nanosecond-based trace (MemAI's Timestamp counts cycles).
std::string write_csv_trace(const Trace& trace);

}  // namespace sysgym::memtier
