// Throughput of the trace pipeline: CSV parse, binary load, preprocessing, what-if estimates.
// Run: build/native-release/tests/sysgym_bench (figures are reported in the README).
#include <benchmark/benchmark.h>

#include "base/rng.hpp"
#include "memtier/estimator.hpp"
#include "memtier/prepared_file.hpp"
#include "memtier/traces/csv_reader.hpp"
#include "memtier/traces/csv_writer.hpp"
#include "memtier/traces/load.hpp"
#include "memtier/traces/synth.hpp"
#include "memtier/traces/trace_file.hpp"

namespace sysgym::memtier {
namespace {

constexpr std::uint64_t kSamples = 1'000'000;

const TracePair& pair_1m() {
  static const TracePair pair = [] {
    SynthOptions o;
    o.pattern = "phased";
    o.samples = kSamples;
    return synthesize_pair(o);
  }();
  return pair;
}

void BM_CsvParse(benchmark::State& state) {
  const std::string text = write_csv_trace(pair_1m().ddr);
  for (auto _ : state) {
    Trace t = read_csv_trace(text, "bench.csv");
    benchmark::DoNotOptimize(t.timestamp.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kSamples));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}
BENCHMARK(BM_CsvParse)->Unit(benchmark::kMillisecond);

void BM_BinaryLoad(benchmark::State& state) {
  const std::vector<std::uint8_t> bytes = encode_trace(pair_1m().ddr);
  for (auto _ : state) {
    Trace t = decode_trace(ContainerReader(bytes, "bench.bin"));
    benchmark::DoNotOptimize(t.timestamp.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kSamples));
}
BENCHMARK(BM_BinaryLoad)->Unit(benchmark::kMillisecond);

void BM_Preprocess(benchmark::State& state) {
  WindowOptions options;
  options.mode = state.range(0) == 0 ? WindowMode::kMemai : WindowMode::kAligned;
  options.window_len = state.range(0) == 0 ? std::optional<double>(10.0) : std::nullopt;
  for (auto _ : state) {
    PreparedPair p = prepare_pair(pair_1m(), options);
    benchmark::DoNotOptimize(p.entry_page.data());
  }
  // Both traces of the pair are processed.
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(2 * kSamples));
  state.SetLabel(state.range(0) == 0 ? "memai, 10 ms windows" : "aligned, ~1000 windows");
}
BENCHMARK(BM_Preprocess)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_PreparedLoad(benchmark::State& state) {
  WindowOptions options;
  options.mode = WindowMode::kAligned;
  const std::vector<std::uint8_t> bytes = encode_prepared_pair(prepare_pair(pair_1m(), options));
  for (auto _ : state) {
    PreparedPair p = decode_prepared_pair(ContainerReader(bytes, "bench.bin"));
    benchmark::DoNotOptimize(p.entry_page.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kSamples));
}
BENCHMARK(BM_PreparedLoad)->Unit(benchmark::kMillisecond);

// A what-if estimate for a new set of `ranges` HBM ranges on a prepared 1 M-sample pair.
void BM_WhatIfEstimate(benchmark::State& state) {
  WindowOptions options;
  options.mode = WindowMode::kAligned;
  const PreparedPair pair = prepare_pair(pair_1m(), options);
  const Estimator estimator(pair);
  Rng rng(1);
  std::vector<HbmRanges> sets;
  for (int s = 0; s < 64; ++s) {
    HbmRanges ranges;
    for (std::int64_t k = 0; k < state.range(0); ++k) {
      const std::uint64_t page = pair.pages[rng.below(pair.pages.size())];
      ranges.add({page, page + (rng.below(256) + 1) * pair.page_bytes()});
    }
    sets.push_back(ranges);
  }
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(estimator.estimate(sets[i++ % sets.size()]).estimated_ms);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(pair.window_count()));
  state.SetLabel(std::to_string(pair.window_count()) + " windows, items = windows");
}
BENCHMARK(BM_WhatIfEstimate)->Arg(1)->Arg(16)->Arg(256)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace sysgym::memtier

BENCHMARK_MAIN();
