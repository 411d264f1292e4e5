// Training throughput of the agents: gradient updates per second on random batches, and env
// steps per second of whole training runs (memtier-v0 on a 1 M-sample pair, 8 envs, one and
// two threads). Run: build/native-release/tests/sysgym_agents_bench (figures in the README).
#include <benchmark/benchmark.h>

#include "agents/trainer.hpp"
#include "support/memtier_registry.hpp"
#include "thread_pool.hpp"

namespace sysgym::agents {
namespace {

// One DQN gradient update (batch 64, 128 x 128 hidden, the default) on a 36-feature input.
void BM_DqnUpdate(benchmark::State& state) {
  DqnConfig config;
  config.learning_starts = 64;
  config.train_every = 1;
  DqnAgent agent(36, 17, config, 1);
  Rng rng(2);
  std::vector<float> obs(36), next(36);
  for (auto _ : state) {
    for (float& x : obs)
      x = static_cast<float>(rng.uniform());
    agent.observe(obs, static_cast<int>(rng.below(17)), -1.0, next, false);
  }
  state.counters["updates/s"] =
      benchmark::Counter(static_cast<double>(agent.updates()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DqnUpdate)->Unit(benchmark::kMicrosecond);

// Whole training runs: env steps per second including acting and learning. Per bin: the shipped
// policies' settings (64 bins, a 32 x 32 network shared by the bins).
void BM_Train(benchmark::State& state, const char* agent, std::size_t threads, bool per_bin) {
  const bool dqn = std::string(agent) == "dqn";
  TrainerOptions options;
  options.agent = agent;
  options.env_id = "memtier-v0";
  for (int k = 0; k < 8; ++k) {
    options.env_configs.push_back({{"trace", "synth:phased:1000000:1"},
                                   {"bins", per_bin ? 64 : 8},
                                   {"hbm_capacity", k % 2 == 0 ? "10%" : "25%"},
                                   {"action_mode", dqn ? "discrete" : "bins"},
                                   {"episode_length", 200},
                                   {"random_start", true}});
  }
  options.agent_config =
      dqn ? nlohmann::json{{"learning_starts", 256}} : nlohmann::json{{"rollout_steps", 64}};
  if (per_bin) {
    options.agent_config["hidden"] = {32, 32};
    options.agent_config[dqn ? "q_network" : "policy_network"] = "per_bin";
    if (dqn) options.agent_config["batch_size"] = 32;
  }
  cli::ThreadPool pool(threads);
  Trainer trainer(testing::memtier_registry(), options,
                  threads > 1 ? pool.as_parallel_for() : ParallelFor{});
  trainer.train_until(2048);  // past learning_starts: measure steady state
  const std::int64_t start = trainer.env_steps();
  for (auto _ : state)
    trainer.train_until(trainer.env_steps() + 512);
  state.counters["env_steps/s"] = benchmark::Counter(
      static_cast<double>(trainer.env_steps() - start), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_Train, dqn_1thread, "dqn", 1, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Train, dqn_2threads, "dqn", 2, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Train, ppo_1thread, "ppo", 1, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Train, ppo_2threads, "ppo", 2, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Train, dqn_per_bin_1thread, "dqn", 1, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Train, ppo_per_bin_1thread, "ppo", 1, true)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace sysgym::agents

BENCHMARK_MAIN();
