#include "memtier/traces/trace_file.hpp"

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/quote.hpp"

namespace sysgym::memtier {

std::vector<std::uint8_t> encode_trace(const Trace& trace) {
  ContainerWriter writer(kTraceKind);
  writer.meta() = {{"source", trace.source},
                   {"time_base", time_base_name(trace.time_base)},
                   {"samples", trace.size()}};
  if (!trace.set_id.empty()) writer.meta()["set_id"] = trace.set_id;
  writer.add("timestamp", trace.timestamp);
  writer.add("vaddr", trace.vaddr);
  writer.add("phase", trace.phase);
  if (trace.has_instrs()) writer.add("instrs", trace.instrs);
  if (!trace.index.empty()) writer.add("index", trace.index);
  if (!trace.access.empty()) writer.add("access", trace.access);
  return writer.finish();
}

Trace decode_trace(const ContainerReader& reader) {
  if (reader.kind() != kTraceKind) {
    throw TraceFormatError(
        reader.source() + ": holds a " + quote(reader.kind()) + ", expected a raw trace" +
        (reader.kind() == "prepared-pair" ? " (a preprocessed pair is given with --input)" : ""));
  }
  Trace trace;
  trace.source = reader.source();
  std::int64_t samples = 0;
  std::string time_base;
  try {
    samples = json_integer<std::int64_t>(reader.meta().at("samples"));
    time_base = reader.meta().at("time_base").get<std::string>();
    if (reader.meta().contains("set_id")) {
      trace.set_id = reader.meta().at("set_id").get<std::string>();
      check_set_id(trace.set_id, reader.source());
    }
  } catch (const nlohmann::json::exception& e) {
    throw TraceFormatError(reader.source() + ": malformed trace meta: " + json_problem(e));
  }
  if (time_base == "cycles") {
    trace.time_base = TimeBase::kCycles;
  } else if (time_base == "nanoseconds") {
    trace.time_base = TimeBase::kNanoseconds;
  } else {
    throw TraceFormatError(reader.source() + ": unknown time_base " + quote(time_base));
  }
  trace.timestamp = reader.read<std::uint64_t>("timestamp", samples);
  trace.vaddr = reader.read<std::uint64_t>("vaddr", samples);
  trace.phase = reader.read<std::uint32_t>("phase", samples);
  if (reader.has("instrs")) trace.instrs = reader.read<std::uint64_t>("instrs", samples);
  if (reader.has("index")) trace.index = reader.read<std::uint64_t>("index", samples);
  if (reader.has("access")) trace.access = reader.read<std::uint8_t>("access", samples);
  validate_trace(trace);
  return trace;
}

}  // namespace sysgym::memtier
