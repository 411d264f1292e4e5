// looptune throughput: env steps per second with random actions on the cost model, cost-model
// evaluations per second, the executor on a register-blocked matmul (GFLOPS), and annealing's
// plan of 2,000 schedules. Run: build/native-release/tests/sysgym_looptune_bench (figures in
// the README).
#include <benchmark/benchmark.h>

#include "base/data_store.hpp"
#include "looptune/cost_model.hpp"
#include "looptune/executor.hpp"
#include "looptune/looptune_env.hpp"
#include "looptune/problems.hpp"
#include "looptune/search.hpp"

namespace sysgym::looptune {
namespace {

// Random actions over LoopTune's training matmuls, episodes of 10 restarting at the end.
void BM_EnvStepRandom(benchmark::State& state) {
  const DataStore data;
  LooptuneEnv env({{"kernel", "matmul-train"}}, data);
  Rng rng(1);
  env.reset(1);
  std::int64_t steps = 0;
  for (auto _ : state) {
    const double action = static_cast<double>(rng.below(kActionCount));
    if (const StepResult r = env.step(std::span<const double>(&action, 1)); r.truncated)
      env.reset();
    ++steps;
  }
  state.counters["steps/s"] =
      benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EnvStepRandom)->Unit(benchmark::kMicrosecond);

void BM_CostModel(benchmark::State& state) {
  const auto problem = problem_from_spec("matmul:256x256x256");
  const LoopNest nest(problem, {{0, 32, 0}, {1, 8, 0}, {0, 8, 0}, {2, 256, 0}, {1, 32, 0}});
  const CostModel model;
  for (auto _ : state)
    benchmark::DoNotOptimize(model.gflops(nest, false));
  state.counters["nests/s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_CostModel);

// The executor on matmul 256^3 blocked as 8 rows of 32 outputs (the register block).
void BM_ExecutorBlock(benchmark::State& state) {
  const auto problem = problem_from_spec("matmul:256x256x256");
  const LoopNest nest(problem, {{0, 32, 0}, {1, 8, 0}, {0, 8, 0}, {2, 256, 0}, {1, 32, 0}});
  const Executor executor(nest, false);
  Operands o = make_operands(*problem, 1);
  for (auto _ : state) {
    executor.run(o.a.data(), o.b.data(), o.out.data());
    benchmark::ClobberMemory();
  }
  state.counters["GFLOPS"] =
      benchmark::Counter(problem->flops() * static_cast<double>(state.iterations()) * 1e-9,
                         benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExecutorBlock)->Unit(benchmark::kMillisecond);

void BM_Anneal2000(benchmark::State& state) {
  const auto problem = problem_from_spec("matmul:128x192x64");
  const Schedule start{LoopNest::initial(problem), 0};
  const CostModel model;
  for (auto _ : state) {
    Rng rng(0);
    const SearchResult r = run_search(
        SearchKind::kAnneal, 0, start, 10,
        [](const Schedule& s, Action a) -> std::optional<Schedule> {
          if (a == Action::kUnroll || a == Action::kVectorize) return std::nullopt;
          return apply(s, a, 10);
        },
        [&model](const LoopNest& nest) { return model.gflops(nest, false); }, SearchBudget{}, rng);
    benchmark::DoNotOptimize(r.gflops);
  }
}
BENCHMARK(BM_Anneal2000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sysgym::looptune

BENCHMARK_MAIN();
