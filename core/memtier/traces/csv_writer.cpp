#include "memtier/traces/csv_writer.hpp"

#include <charconv>

#include "base/error.hpp"

namespace sysgym::memtier {
namespace {

void append(std::string& out, std::uint64_t value, int base = 10) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value, base);
  out.append(buffer, result.ptr);
}

}  // namespace

std::string write_csv_trace(const Trace& trace) {
  if (trace.time_base != TimeBase::kCycles) {
    throw TraceFormatError(trace.source +
                           ": CSV Timestamps count CPU cycles; this trace counts nanoseconds "
                           "(keep it in the binary format)");
  }
  const bool instrs = trace.has_instrs();
  const bool index = !trace.index.empty();
  std::string out;
  out.reserve(trace.size() * 48 + 64);
  if (!trace.set_id.empty()) out += std::string(kCsvSetPrefix) + trace.set_id + "\n";
  out += instrs ? "Timestamp,Instrs,Vaddr,Phase" : "Timestamp,Vaddr,Phase";
  out += index ? ",Index\n" : "\n";
  for (std::size_t i = 0; i < trace.size(); ++i) {
    append(out, trace.timestamp[i]);
    out += ',';
    if (instrs) {
      append(out, trace.instrs[i]);
      out += ',';
    }
    out += "0x";
    append(out, trace.vaddr[i], 16);
    out += ',';
    append(out, trace.phase[i]);
    if (index) {
      out += ',';
      append(out, trace.index[i]);
    }
    out += '\n';
  }
  return out;
}

}  // namespace sysgym::memtier
