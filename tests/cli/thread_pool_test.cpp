#include "thread_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "memtier/memtier_env.hpp"

namespace sysgym::cli {
namespace {

TEST(ThreadPool, RunsEveryIndexExactlyOnce) {
  ThreadPool pool(2);
  for (int round = 0; round < 50; ++round) {
    std::vector<std::atomic<int>> hits(97);
    pool.parallel_for(hits.size(), [&](std::size_t i) { hits[i].fetch_add(1); });
    for (const auto& h : hits)
      ASSERT_EQ(h.load(), 1);
  }
}

TEST(ThreadPool, WakesWorkersAndTheCallerThatFellAsleep) {
  // Pauses longer than the spinning put the workers to sleep between calls, and bodies slower
  // than it put the caller to sleep while it waits: no call may hang or miss an index.
  ThreadPool pool(3);
  for (int round = 0; round < 6; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(round % 2 == 0 ? 30 : 0));
    std::vector<std::atomic<int>> hits(9);
    pool.parallel_for(hits.size(), [&](std::size_t i) {
      if (i == 8 && round >= 3) std::this_thread::sleep_for(std::chrono::milliseconds(30));
      hits[i].fetch_add(1);
    });
    for (const auto& h : hits)
      ASSERT_EQ(h.load(), 1);
  }
}

TEST(ThreadPool, RethrowsABodysException) {
  ThreadPool pool(2);
  EXPECT_THROW(pool.parallel_for(10,
                                 [](std::size_t i) {
                                   if (i == 7) throw std::runtime_error("seven");
                                 }),
               std::runtime_error);
  std::atomic<int> after{0};
  pool.parallel_for(4, [&](std::size_t) { after.fetch_add(1); });
  EXPECT_EQ(after.load(), 4);
}

TEST(ThreadPool, ThreadedVectorEnvsGiveTheSameEpisodesAsSequentialOnes) {
  auto traces = std::make_shared<memtier::InMemoryPairSource>();
  Registry registry;
  memtier::register_memtier(registry, traces);
  const nlohmann::json config = {{"trace", "synth:phased:5000:2:16"},
                                 {"bins", 8},
                                 {"random_start", true},
                                 {"episode_length", 30}};
  ThreadPool pool(2);
  auto run = [&](ParallelFor parallel_for) {
    VectorEnv envs = VectorEnv::make(registry, "memtier", config, 6, std::move(parallel_for));
    envs.reset(11);
    Rng rng(3);
    std::vector<double> rewards;
    for (int step = 0; step < 70; ++step) {
      std::vector<double> actions;
      for (std::size_t e = 0; e < envs.size(); ++e) {
        const auto a = envs.action_space().sample(rng);
        actions.insert(actions.end(), a.begin(), a.end());
      }
      envs.step(actions);
      rewards.insert(rewards.end(), envs.rewards().begin(), envs.rewards().end());
    }
    return rewards;
  };
  EXPECT_EQ(run({}), run(pool.as_parallel_for()));
}

}  // namespace
}  // namespace sysgym::cli
