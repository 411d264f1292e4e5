// tensorplace throughput: env steps per second on ResNet-200 at batch 512, zoo graph generation,
// plan replay, and the static ILP's build and CBC solve per model (VGG-19 and ResNet-50 at batch
// 64, half of the peak in fast memory). Run: build/native-release/tests/sysgym_tensorplace_bench
// (figures in the README).
#include <benchmark/benchmark.h>

#include <memory>

#include "base/data_store.hpp"
#include "families/tensorplace/cbc_solver.hpp"
#include "tensorplace/ilp.hpp"
#include "tensorplace/tensorplace_env.hpp"
#include "tensorplace/zoo/zoo.hpp"

namespace sysgym::tensorplace {
namespace {

// Random operand placements, as an untrained agent makes them; episodes restart at the end.
void BM_EnvStepResnet200(benchmark::State& state) {
  const DataStore data;
  TensorplaceEnv env({{"model", "resnet200"}, {"batch", 512}, {"fast_memory", "50%"}}, data);
  Rng rng(1);
  std::vector<double> action(env.action_space().flat_size());
  env.reset(1);
  std::int64_t steps = 0;
  for (auto _ : state) {
    for (double& a : action)
      a = static_cast<double>(rng.below(2));
    if (const StepResult r = env.step(action); r.terminated) env.reset();
    ++steps;
  }
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EnvStepResnet200)->Unit(benchmark::kMicrosecond);

void BM_ZooGraph(benchmark::State& state, const char* model) {
  for (auto _ : state)
    benchmark::DoNotOptimize(zoo_graph(model, 64).kernels().size());
}
BENCHMARK_CAPTURE(BM_ZooGraph, resnet200, "resnet200")->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ZooGraph, vgg416, "vgg416")->Unit(benchmark::kMillisecond);

void BM_ReplayFirstTouch(benchmark::State& state) {
  const Graph g = zoo_graph("resnet200", 64);
  const Platform p = platform_named("optane");
  const std::uint64_t limit = g.peak_live_bytes() / 2;
  const Plan plan = first_touch(g, limit);
  for (auto _ : state)
    benchmark::DoNotOptimize(simulate(g, p, plan, limit).iteration_s);
  state.counters["kernels/s"] = benchmark::Counter(
      static_cast<double>(g.kernels().size()) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ReplayFirstTouch)->Unit(benchmark::kMillisecond);

// Building the LP text, then CBC from the first-touch start to a 1 % gap (60 s at most).
void BM_Ilp(benchmark::State& state, const char* model, IlpVariant variant) {
  const Graph g = zoo_graph(model, 64);
  const Platform p = platform_named("optane");
  const std::uint64_t limit = g.peak_live_bytes() / 2;
  SolveOptions options;
  options.relative_gap = 0.01;
  double gap = 0;
  for (auto _ : state) {
    const IlpModel ilp = build_ilp(g, p, limit, variant);
    options.start = ilp_start(ilp, first_touch(g, limit)).value();
    const SolveResult solved = cli::solve_with_cbc(ilp.lp, options);
    gap = (solved.objective - solved.bound) / solved.objective;
  }
  state.counters["gap %"] = gap * 100;
}
BENCHMARK_CAPTURE(BM_Ilp, static_vgg19, "vgg19", IlpVariant::kStatic)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_Ilp, static_resnet50, "resnet50", IlpVariant::kStatic)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_Ilp, sync_vgg19, "vgg19", IlpVariant::kSync)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_Ilp, sync_resnet50, "resnet50", IlpVariant::kSync)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_Ilp, async_vgg19, "vgg19", IlpVariant::kAsync)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void BM_StaticIlpBuild(benchmark::State& state, const char* model) {
  const Graph g = zoo_graph(model, 64);
  const Platform p = platform_named("optane");
  for (auto _ : state)
    benchmark::DoNotOptimize(
        build_ilp(g, p, g.peak_live_bytes() / 2, IlpVariant::kStatic).lp.size());
}
BENCHMARK_CAPTURE(BM_StaticIlpBuild, resnet200, "resnet200")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sysgym::tensorplace

BENCHMARK_MAIN();
