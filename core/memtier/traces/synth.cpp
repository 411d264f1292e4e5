#include "memtier/traces/synth.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "base/names.hpp"
#include "base/rng.hpp"
#include "memtier/hbm_ranges.hpp"

namespace sysgym::memtier {
namespace {

// How a sampled access costs: bandwidth-bound streaming or latency-bound random access.
enum AccessClass : std::uint8_t { kStreaming = 0, kLatencyBound = 1 };

struct ClassCost {
  std::uint64_t misses_per_kilo_instruction;
  std::uint64_t ddr_cycles_per_miss;
  std::uint64_t hbm_cycles_per_miss;
};
// Effective cycles per miss with many misses in flight: DDR4 ~90 GB/s vs MCDRAM ~400 GB/s for
// streaming; for dependent random accesses MCDRAM's slightly higher latency shows.
constexpr ClassCost kCost[2] = {{40, 24, 6}, {30, 110, 120}};

constexpr std::uint64_t kBaseTimestamp = 5'000'000;
constexpr std::uint64_t kHeapBase = 0x7f3a00000000ull;
constexpr std::uint64_t kArrayGap = 64ull << 20;  // between arrays, like separate mmaps

struct Workload {
  std::vector<std::uint64_t> vaddr;
  std::vector<std::uint64_t> instrs;  // per-sample instruction delta
  std::vector<std::uint32_t> phase;
  std::vector<std::uint8_t> access_class;
  std::vector<std::uint8_t> access_kind;
};

void push(Workload& w, std::uint64_t address, std::uint32_t phase, AccessClass cls,
          AccessKind kind) {
  w.vaddr.push_back(address & ~std::uint64_t{7});
  w.phase.push_back(phase);
  w.access_class.push_back(cls);
  w.access_kind.push_back(static_cast<std::uint8_t>(kind));
}

void make_stream(const SynthOptions& o, Rng& rng, Workload& w) {
  const std::uint64_t array_bytes = o.footprint_bytes / 3;
  const std::uint64_t elements = array_bytes / 8;
  std::uint64_t position = 0;
  for (std::uint64_t i = 0; i < o.samples; ++i) {
    position = (position + 1 + rng.below(64)) % elements;
    const std::uint64_t array = rng.below(3);  // 0: a (store), 1: b, 2: c
    const std::uint64_t base = kHeapBase + array * (array_bytes + kArrayGap);
    push(w, base + position * 8, 0, kStreaming,
         array == 0 ? AccessKind::kStore : AccessKind::kLoad);
  }
}

void make_phased(const SynthOptions& o, Rng& rng, Workload& w) {
  const std::uint64_t hot_bytes = o.footprint_bytes / 16;
  for (std::uint64_t i = 0; i < o.samples; ++i) {
    const auto phase = static_cast<std::uint32_t>(i * o.phases / o.samples);
    const std::uint64_t hot_base = (o.footprint_bytes / o.phases) * phase;
    if (rng.chance(85, 100)) {
      push(w, kHeapBase + hot_base + rng.below(hot_bytes), phase, kStreaming, AccessKind::kLoad);
    } else {
      push(w, kHeapBase + rng.below(o.footprint_bytes), phase, kLatencyBound, AccessKind::kLoad);
    }
  }
}

void make_random(const SynthOptions& o, Rng& rng, Workload& w) {
  const std::uint64_t index_bytes = 1ull << 20;
  const std::uint64_t table_base = kHeapBase + index_bytes + kArrayGap;
  for (std::uint64_t i = 0; i < o.samples; ++i) {
    if (rng.chance(1, 10)) {
      push(w, kHeapBase + rng.below(index_bytes), 0, kStreaming, AccessKind::kLoad);
    } else {
      push(w, table_base + rng.below(o.footprint_bytes), 0, kLatencyBound, AccessKind::kStore);
    }
  }
}

void make_stencil(const SynthOptions& o, Rng& rng, Workload& w) {
  std::uint64_t n = 8;
  while (2 * (n + 1) * (n + 1) * (n + 1) * 8 <= o.footprint_bytes)
    ++n;
  const std::uint64_t grid_bytes = n * n * n * 8;
  const std::uint64_t out_base = kHeapBase + grid_bytes + kArrayGap;
  const std::int64_t offsets[7] = {0,
                                   1,
                                   -1,
                                   static_cast<std::int64_t>(n),
                                   -static_cast<std::int64_t>(n),
                                   static_cast<std::int64_t>(n * n),
                                   -static_cast<std::int64_t>(n * n)};
  const std::uint64_t points = n * n * n;
  std::uint64_t point = n * n;
  for (std::uint64_t i = 0; i < o.samples; ++i) {
    point = point + 1 + rng.below(32);
    if (point >= points - n * n) point = n * n;  // stay off the boundary planes
    const std::uint64_t pick = rng.below(8);
    if (pick == 7) {
      push(w, out_base + point * 8, 0, kStreaming, AccessKind::kStore);
    } else {
      const auto neighbour =
          static_cast<std::uint64_t>(static_cast<std::int64_t>(point) + offsets[pick]);
      push(w, kHeapBase + neighbour * 8, 0, kStreaming, AccessKind::kLoad);
    }
  }
}

// One phase of a `family` program: a hot set that slides by `drift` bytes over the phase.
struct FamilyPhase {
  std::uint64_t end = 0;  // first sample after the phase
  std::uint64_t base = 0, bytes = 0, drift = 0;
  std::uint64_t hot_percent = 0, streaming_percent = 0;
};

// The seed draws the program's shape, so that a learner trained on some seeds meets programs it
// never saw with others: 1 to 12 phases of random lengths, each with a hot set of 1/64 to 1/4 of
// the footprint at a random place, drawing 60 to 95 % of the samples, sliding by up to 1/8 of
// its size, bandwidth-bound for 50 to 100 % of its accesses.
std::vector<FamilyPhase> family_phases(const SynthOptions& o, Rng& rng) {
  std::vector<FamilyPhase> phases(1 + rng.below(12));
  std::vector<std::uint64_t> ends;
  for (std::size_t p = 1; p < phases.size(); ++p)
    ends.push_back(rng.below(o.samples));
  std::sort(ends.begin(), ends.end());
  ends.push_back(o.samples);
  for (std::size_t p = 0; p < phases.size(); ++p) {
    FamilyPhase& phase = phases[p];
    phase.end = ends[p];
    phase.bytes = o.footprint_bytes >> (2 + rng.below(5));
    phase.base = rng.below(o.footprint_bytes - phase.bytes + 1);
    phase.drift = rng.below(phase.bytes / 8 + 1);
    phase.hot_percent = 60 + rng.below(36);
    phase.streaming_percent = 50 + rng.below(51);
  }
  return phases;
}

void make_family(const SynthOptions& o, Rng& rng, Workload& w) {
  const std::vector<FamilyPhase> phases = family_phases(o, rng);
  std::uint64_t start = 0;
  std::size_t p = 0;
  for (std::uint64_t i = 0; i < o.samples; ++i) {
    while (i >= phases[p].end) {
      start = phases[p].end;
      ++p;
    }
    const FamilyPhase& phase = phases[p];
    const auto id = static_cast<std::uint32_t>(p);
    if (rng.chance(phase.hot_percent, 100)) {
      const std::uint64_t slide = phase.drift * (i - start) / (phase.end - start);
      const std::uint64_t offset =
          (phase.base + slide + rng.below(phase.bytes)) % o.footprint_bytes;
      const AccessClass cls = rng.chance(phase.streaming_percent, 100) ? kStreaming : kLatencyBound;
      push(w, kHeapBase + offset, id, cls, AccessKind::kLoad);
    } else {
      push(w, kHeapBase + rng.below(o.footprint_bytes), id, kLatencyBound, AccessKind::kLoad);
    }
  }
}

void check_options(const SynthOptions& o) {
  const auto& patterns = synth_patterns();
  bool known = false;
  for (const auto& p : patterns)
    known = known || p == o.pattern;
  if (!known) throw UnknownNameError(unknown_name_message("pattern", o.pattern, patterns));
  if (o.samples < kSynthSamplesRange.min || o.samples > kSynthSamplesRange.max) {
    throw ConfigError("samples must be in [2, " + std::to_string(kSynthSamplesRange.max) +
                      "] (a pair takes about 120 bytes per sample while built), got " +
                      std::to_string(o.samples));
  }
  if (o.footprint_bytes < (1ull << 20) || o.footprint_bytes > (1ull << 40)) {
    throw ConfigError("footprint must be between 1 MiB and 1 TiB, got " +
                      std::to_string(o.footprint_bytes) + " bytes");
  }
  if (o.sample_period < kSynthPeriodRange.min || o.sample_period > kSynthPeriodRange.max) {
    throw ConfigError("sample period must be in [10, 100000000] instructions, got " +
                      std::to_string(o.sample_period));
  }
  if (o.phases < kSynthPhasesRange.min || o.phases > kSynthPhasesRange.max) {
    throw ConfigError("phases must be in [1, 1024], got " + std::to_string(o.phases));
  }
}

Workload make_workload(const SynthOptions& o) {
  check_options(o);
  Workload w;
  Rng rng(derive_seed(o.seed, 0));
  if (o.pattern == "family") make_family(o, rng, w);
  if (o.pattern == "stream") make_stream(o, rng, w);
  if (o.pattern == "phased") make_phased(o, rng, w);
  if (o.pattern == "random") make_random(o, rng, w);
  if (o.pattern == "stencil") make_stencil(o, rng, w);
  for (std::uint64_t i = 0; i < o.samples; ++i) {
    w.instrs.push_back(o.sample_period * (90 + rng.below(21)) / 100);
  }
  return w;
}

// One run of the workload; in_hbm(i) says whether sample i's data is in HBM.
template <typename InHbm>
Trace run(const Workload& w, std::uint64_t seed, std::string source, InHbm in_hbm) {
  Rng jitter(seed);
  Trace t;
  t.source = std::move(source);
  t.time_base = TimeBase::kCycles;
  t.vaddr = w.vaddr;
  t.phase = w.phase;
  t.access = w.access_kind;
  std::uint64_t clock = kBaseTimestamp;
  std::uint64_t retired = 0;
  for (std::size_t i = 0; i < w.vaddr.size(); ++i) {
    const ClassCost& cost = kCost[w.access_class[i]];
    const std::uint64_t misses = w.instrs[i] * cost.misses_per_kilo_instruction / 1000;
    const std::uint64_t per_miss = in_hbm(i) ? cost.hbm_cycles_per_miss : cost.ddr_cycles_per_miss;
    const std::uint64_t memory = misses * per_miss * (97 + jitter.below(7)) / 100;
    clock += w.instrs[i] * 6 / 10 + memory;
    retired += w.instrs[i];
    t.timestamp.push_back(clock);
    t.instrs.push_back(retired);
  }
  return t;
}

}  // namespace

const std::vector<std::string>& synth_patterns() {
  static const std::vector<std::string> patterns = {"family", "phased", "random", "stencil",
                                                    "stream"};
  return patterns;
}

TracePair synthesize_pair(const SynthOptions& options) {
  const Workload w = make_workload(options);
  const std::string name = "synth-" + options.pattern;
  TracePair pair{
      run(w, derive_seed(options.seed, 1), name + ".ddr", [](std::size_t) { return false; }),
      run(w, derive_seed(options.seed, 2), name + ".hbm", [](std::size_t) { return true; })};
  stamp_set_id(pair);
  return pair;
}

Trace synthesize_mixed(const SynthOptions& options, const HbmRanges& hbm) {
  const Workload w = make_workload(options);
  return run(w, derive_seed(options.seed, 3), "synth-" + options.pattern + ".mixed",
             [&](std::size_t i) { return hbm.contains(w.vaddr[i]); });
}

}  // namespace sysgym::memtier
