// A pair source holding one small synthetic pair (phased, 4,000 samples, 8 MiB) under the name
// "small": fuzz targets and the bad-input catalogue point configs and episodes at it, so they
// exercise parsing and checking rather than the generation of large traces.
#pragma once

#include <memory>

#include "memtier/pair_source.hpp"
#include "memtier/traces/synth.hpp"

namespace sysgym::testing {

inline constexpr const char* kSmallTrace = "small";

inline memtier::InMemoryPairSource& small_source() {
  static memtier::InMemoryPairSource source;
  static const bool ready = [] {
    memtier::SynthOptions o;
    o.pattern = "phased";
    o.samples = 4000;
    o.footprint_bytes = 8ull << 20;
    source.add_traces(kSmallTrace,
                      std::make_shared<memtier::TracePair>(memtier::synthesize_pair(o)));
    return true;
  }();
  (void)ready;
  return source;
}

// A pair source with nothing added, shared by a test binary: its envs read synth: traces, which
// it generates once per name and keeps.
inline std::shared_ptr<memtier::InMemoryPairSource> synth_source() {
  static const auto shared = std::make_shared<memtier::InMemoryPairSource>();
  return shared;
}

}  // namespace sysgym::testing
