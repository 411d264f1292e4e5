// Reader for MemAI-style CSV traces.
//
// The first non-empty line is a header naming the columns (matched case-insensitively, in any
// order, extra columns ignored): Timestamp (CPU cycles, unsigned integer, required), Vaddr
// (decimal or 0x-hex, required), Instrs (instructions retired, optional), Phase (optional,
// 0 when absent), Index (optional). Rows must be ordered by Timestamp and grouped by increasing
// Phase; Instrs counters that restart at each phase are made cumulative.
#pragma once

#include <string>
#include <string_view>

#include "base/progress.hpp"
#include "memtier/traces/trace.hpp"

namespace sysgym::memtier {

// Throws TraceFormatError naming `source`, the line and the column.
Trace read_csv_trace(std::string_view text, std::string source, const ProgressFn& progress = {});

}  // namespace sysgym::memtier
