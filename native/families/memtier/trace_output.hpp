// Writing the traces of one run set (a DDR/HBM pair and its mixed runs) as one atomic set, in
// the format the user chose.
#pragma once

#include <string>
#include <vector>

#include "memtier/traces/trace.hpp"

namespace sysgym::cli {

struct TraceOutput {
  std::string path;
  const memtier::Trace* trace = nullptr;
};

// "csv" or "bin". Every file is encoded first, then all are written by write_files_atomically:
// either all of them replace the previous files or none does. Throws sysgym::Error.
void write_trace_set(const std::vector<TraceOutput>& outputs, const std::string& format);

}  // namespace sysgym::cli
