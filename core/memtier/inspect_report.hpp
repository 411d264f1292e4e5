// `sysgym memtier inspect`: what a trace or a preprocessed pair holds (samples, time span,
// phases, footprint, regions; a pair's windows and bounds), as JSON and as the text both shells
// print.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "base/numbers.hpp"
#include "base/progress.hpp"
#include "memtier/regions.hpp"
#include "memtier/windows.hpp"

namespace sysgym::memtier {

inline constexpr IntegerRange kIntervalDistanceRange{kMinPageSizeBits, 63};

struct InspectOptions {
  int page_size = 13;                                // log2 of the page size for footprints
  int interval_distance = kDefaultIntervalDistance;  // pages closer than 2^N bytes: one region
  double cpu_cycles_per_ms = 1.4e6;
};

// The report of the file `name` holding `bytes` (any trace format or a preprocessed pair).
// Throws TraceFormatError / ContainerError naming it.
nlohmann::json inspect_report(std::span<const std::uint8_t> bytes, const std::string& name,
                              const InspectOptions& options, const ProgressFn& progress = {});

// One "key value" line per fact, then the largest regions.
std::string inspect_text(const nlohmann::json& report);

}  // namespace sysgym::memtier
