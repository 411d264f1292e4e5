// Synthetic trace pairs for tests, demos and benchmarks, deterministic by seed.
//
// A workload is a stream of PEBS-like samples (one every ~sample_period instructions, +-10 %)
// with the address the sampled access touched. Patterns:
//   stream   STREAM triad over three arrays a = b + s*c, swept again and again
//            (bandwidth-bound: HBM pays ~1/4 of DDR's cycles per miss)
//   phased   `phases` phases, each with its own hot set (1/16 of the footprint, 85 % of the
//            samples, bandwidth-bound) over a uniformly touched cold background (latency-bound)
//   random   GUPS-like uniform updates of a table plus a small hot index array
//            (latency-bound: MCDRAM-like HBM is slightly slower than DDR per miss)
//   stencil  3-D 7-point stencil sweeping a grid from `in` to `out` (mostly bandwidth-bound)
//   family   a program drawn from the seed: 1-12 phases of random lengths, each with its own hot
//            set (size, place, share of samples, drift, share bandwidth-bound), so that seeds
//            are a family of programs to train on some of and evaluate on others
// Time model per sample, in cycles: instructions * 0.6 + misses * cycles_per_miss(memory,
// access class), misses = instructions * misses_per_kilo_instruction / 1000, each run with its
// own +-3 % jitter on the memory part. Only integer arithmetic: identical in every build.
// A "mixed" run prices each sample with HBM costs when its page lies in the given HBM ranges,
// which plays the part of MemAI's measured mixed-placement runs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/numbers.hpp"
#include "memtier/traces/trace.hpp"

namespace sysgym::memtier {

class HbmRanges;

// Building a pair peaks at about 120 bytes per sample (measured natively), so the cap keeps a
// synthetic trace under 6 GB instead of letting a typo in a trace name exhaust the machine.
inline constexpr std::uint64_t kMaxSynthSamples = 50'000'000;
// Accepted values (both ends included), for the checks here and the CLI's flags.
inline constexpr IntegerRange kSynthSamplesRange{2, kMaxSynthSamples};
inline constexpr IntegerRange kSynthPeriodRange{10, 100'000'000};
inline constexpr IntegerRange kSynthPhasesRange{1, 1024};

struct SynthOptions {
  std::string pattern = "stream";
  std::uint64_t samples = 100'000;
  std::uint64_t seed = 1;
  std::uint64_t footprint_bytes = 256ull << 20;
  std::uint64_t sample_period = 20'000;  // instructions between samples
  std::uint32_t phases = 4;              // pattern "phased"
};

const std::vector<std::string>& synth_patterns();

// Throws UnknownNameError for an unknown pattern, ConfigError for out-of-range options.
TracePair synthesize_pair(const SynthOptions& options);
// The same workload run with the data at addresses inside `hbm` placed in HBM.
Trace synthesize_mixed(const SynthOptions& options, const HbmRanges& hbm);

}  // namespace sysgym::memtier
