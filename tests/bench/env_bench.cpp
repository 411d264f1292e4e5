// memtier-v0 stepping throughput on a 1 M-sample pair: one env (also under an active profiler), a
// VectorEnv of 8, each built-in policy's time per window, and the exact dynamic oracle's solve.
// Run: build/native-release/tests/sysgym_env_bench (figures are reported in the README).
#include <benchmark/benchmark.h>

#include "env/episode.hpp"
#include "env/vector_env.hpp"
#include "memtier/memtier_env.hpp"
#include "memtier/placement_schedule.hpp"
#include "memtier/policy.hpp"
#include "profiling/profiler.hpp"
#include "support/small_source.hpp"
#include "thread_pool.hpp"

namespace sysgym::memtier {
namespace {

// bins x samples per window (window_len in instructions: the phased pattern retires ~20,000
// instructions per sample, so 2e6 gives ~100 samples per window, 2e7 ~1,000).
nlohmann::json config(std::int64_t bins, double window_len) {
  return {{"trace", "synth:phased:1000000:1"},
          {"bins", bins},
          {"hbm_capacity", "25%"},
          {"window_len", window_len}};
}

std::vector<std::vector<double>> actions(const Env& env, std::size_t count) {
  Rng rng(1);
  std::vector<std::vector<double>> out;
  for (std::size_t i = 0; i < count; ++i)
    out.push_back(env.action_space().sample(rng));
  return out;
}

// Agent-like actions: the placement changes by one bin per step (a promote or a demote).
std::vector<std::vector<double>> agent_like(const Env& env, std::size_t count) {
  Rng rng(2);
  std::vector<double> action(env.action_space().flat_size(), 0.0);
  for (std::size_t i = 0; i < action.size(); i += 4)
    action[i] = 1.0;
  std::vector<std::vector<double>> out;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t bin = rng.below(action.size());
    action[bin] = 1.0 - action[bin];
    out.push_back(action);
  }
  return out;
}

// Steps one env through `acts` in a loop, resetting at episode ends.
template <typename MakeActions>
void step_env(benchmark::State& state, MakeActions make_actions) {
  MemtierEnv env(config(state.range(0), static_cast<double>(state.range(1))),
                 *testing::synth_source());
  const auto acts = make_actions(env);
  env.reset(0);
  std::size_t i = 0;
  for (auto _ : state) {
    const StepResult r = env.step(acts[i++ % acts.size()]);
    if (r.terminated || r.truncated) env.reset();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(std::to_string(env.pair().window_count()) + " windows");
}

// Random actions: about half the bins requested every step, over capacity, churning.
void BM_EnvStepRandom(benchmark::State& state) {
  step_env(state, [](const Env& env) { return actions(env, 64); });
}
BENCHMARK(BM_EnvStepRandom)
    ->ArgsProduct({{64, 1024}, {2'000'000, 20'000'000}})
    ->ArgNames({"bins", "window_instrs"});

// The same steps with a profiler recording every scope (`sysgym profile`'s cost, before its
// correction); BM_EnvStepRandom is the same code with profiling off.
void BM_EnvStepProfiled(benchmark::State& state) {
  profiling::Profiler profiler;
  const profiling::Activation on(profiler);
  step_env(state, [](const Env& env) { return actions(env, 64); });
  state.counters["scopes/step"] =
      static_cast<double>(profiler.scopes()) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_EnvStepProfiled)
    ->ArgsProduct({{64, 1024}, {2'000'000, 20'000'000}})
    ->ArgNames({"bins", "window_instrs"});

void BM_EnvStepAgentLike(benchmark::State& state) {
  step_env(state, [](const Env& env) { return agent_like(env, 4096); });
}
BENCHMARK(BM_EnvStepAgentLike)
    ->ArgsProduct({{64, 1024}, {2'000'000, 20'000'000}})
    ->ArgNames({"bins", "window_instrs"});

// state.range(1) threads (1: the calling thread alone).
void BM_VectorEnvStep(benchmark::State& state) {
  Registry registry;
  register_memtier(registry, testing::synth_source());
  constexpr std::size_t kEnvs = 8;
  cli::ThreadPool pool(static_cast<std::size_t>(state.range(1)));
  VectorEnv envs = VectorEnv::make(registry, "memtier", config(state.range(0), 2'000'000), kEnvs,
                                   state.range(1) > 1 ? pool.as_parallel_for() : ParallelFor());
  const auto one = actions(envs.env(0), 64);
  std::vector<double> batch;
  for (std::size_t e = 0; e < kEnvs; ++e)
    batch.insert(batch.end(), one[e].begin(), one[e].end());
  envs.reset(0);
  for (auto _ : state)
    envs.step(batch);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kEnvs));
  state.SetLabel("8 envs, items = env steps");
}
BENCHMARK(BM_VectorEnvStep)
    ->ArgsProduct({{64, 1024}, {1, 2}})
    ->ArgNames({"bins", "threads"})
    ->UseRealTime();

// One episode of a built-in policy per iteration (1,002 windows of ~1,000 samples, 64 bins):
// items are windows, so the rate is windows per second and its inverse the time per window
// (the policy's decision plus the env's step).
void BM_PolicyEpisode(benchmark::State& state, const std::string& name) {
  PolicyRegistry policies;
  register_generic_policies(policies);
  register_memtier_policies(policies);
  nlohmann::json c = config(64, 20'000'000);
  c["episode_length"] = 0;
  MemtierEnv env(c, *testing::synth_source());
  for (auto _ : state) {
    auto policy = policies.make(name, kMemtierId);
    benchmark::DoNotOptimize(run_episode(env, *policy, name, 0, false).episode_return);
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<std::int64_t>(env.pair().window_count()));
  state.SetLabel("items = windows");
}
BENCHMARK_CAPTURE(BM_PolicyEpisode, lru, std::string("lru"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PolicyEpisode, lfu_hemem, std::string("lfu-hemem"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PolicyEpisode, memtis, std::string("memtis"))->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PolicyEpisode, autonuma, std::string("autonuma"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PolicyEpisode, static_oracle, std::string("static-oracle"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_PolicyEpisode, lookahead, std::string("lookahead"))
    ->Unit(benchmark::kMillisecond);

// The exact dynamic oracle's min-cost flow (placement_schedule.hpp) on phased pairs of
// state.range(0) samples (1,000 windows), at 10 % of the footprint.
void BM_DynamicOracleSolve(benchmark::State& state) {
  const std::string trace = "synth:phased:" + std::to_string(state.range(0)) + ":1";
  MemtierEnv env({{"trace", trace}, {"hbm_capacity", "10%"}, {"episode_length", 0}},
                 *testing::synth_source());
  ScheduleProblem problem;
  problem.end = env.pair().window_count();
  problem.slots = env.capacity_bytes() / env.pair().page_bytes();
  problem.move_ms = env.migration_ms_for_bytes(env.pair().page_bytes());
  std::size_t arcs = 0;
  for (auto _ : state)
    arcs = optimal_schedule(env.pair(), problem).arcs;
  state.SetLabel(std::to_string(arcs) + " arcs");
}
BENCHMARK(BM_DynamicOracleSolve)
    ->Arg(20'000)
    ->Arg(100'000)
    ->ArgName("samples")
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sysgym::memtier

BENCHMARK_MAIN();
