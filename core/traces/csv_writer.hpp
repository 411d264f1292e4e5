// Writes a trace as MemAI-column CSV (Timestamp,Instrs,Vaddr,Phase[,Index]); Vaddr in 0x-hex.
// The inverse of read_csv_trace for cycle-based traces.
#pragma once

#include <string>

#include "traces/trace.hpp"

namespace sysgym::memtier {

// Throws TraceFormatError for a nanosecond-based trace (MemAI's Timestamp counts cycles).
std::string write_csv_trace(const Trace& trace);

}  // namespace sysgym::memtier
