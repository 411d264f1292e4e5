// What a profiling scope costs: with no profiler installed (every env step, inference and update
// pays this, profiled or not) against the same loop without a scope, and with a profiler
// recording. The README's "zero cost when off" is BM_ScopeOff against BM_NoScope.
// Run: build/native-release/tests/sysgym_profiling_bench
#include <benchmark/benchmark.h>

#include <cstdint>

#include "profiling/profiler.hpp"

namespace sysgym::profiling {
namespace {

const Op kBench("bench.scope", Category::kGlue);

// The work inside each scope: one opaque increment, so the loop is not optimised away.
void BM_NoScope(benchmark::State& state) {
  std::int64_t n = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(++n);
}
BENCHMARK(BM_NoScope);

void BM_ScopeOff(benchmark::State& state) {
  std::int64_t n = 0;
  for (auto _ : state) {
    const Scope s(kBench);
    benchmark::DoNotOptimize(++n);
  }
}
BENCHMARK(BM_ScopeOff);

void BM_ScopeOn(benchmark::State& state) {
  Profiler profiler;
  const Activation on(profiler);
  std::int64_t n = 0;
  for (auto _ : state) {
    const Scope s(kBench);
    benchmark::DoNotOptimize(++n);
  }
}
BENCHMARK(BM_ScopeOn);

}  // namespace
}  // namespace sysgym::profiling

BENCHMARK_MAIN();
