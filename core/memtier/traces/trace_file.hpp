// A raw trace in the binary container (kind "trace"): blocks timestamp, vaddr, phase and, when
// present, instrs, index, access; meta holds source, time_base and the sample count.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/container.hpp"
#include "memtier/traces/trace.hpp"

namespace sysgym::memtier {

inline constexpr const char* kTraceKind = "trace";

std::vector<std::uint8_t> encode_trace(const Trace& trace);
// Throws TraceFormatError (file name = reader.source()) for a malformed or inconsistent trace.
Trace decode_trace(const ContainerReader& reader);

}  // namespace sysgym::memtier
