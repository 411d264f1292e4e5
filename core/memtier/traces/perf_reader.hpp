// Reader for `perf script` text of `perf mem record` samples.
//
// Recommended capture:  perf mem record -- PROGRAM
//                       perf script -F time,event,addr,weight,data_src > run.perf.txt
// Each sample line holds a time token "SECONDS.FRACTION:"; the data address is the first token
// after the event name (a token ending in ':'), or right after the time when no event is printed,
// in perf's hexadecimal without 0x. A decimal weight may follow, then data_src, whose "|OP LOAD|"
// or "|OP STORE|" part gives the access kind. Leading comm/pid/cpu fields are skipped. Lines
// starting with '#' and empty lines are ignored. Timestamps become nanoseconds; perf samples carry
// no instruction counts or phases (phase 0).
#pragma once

#include <string>
#include <string_view>

#include "base/progress.hpp"
#include "memtier/traces/trace.hpp"

namespace sysgym::memtier {

// Throws TraceFormatError naming `source` and the line.
Trace read_perf_script_trace(std::string_view text, std::string source,
                             const ProgressFn& progress = {});

// True when `line` holds a perf time token ("123.456789:" as a whitespace-separated token).
bool looks_like_perf_sample(std::string_view line);

}  // namespace sysgym::memtier
