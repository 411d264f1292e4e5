// Data-parallel PPO without MPI: ranks as threads of this test, whose sums meet at a barrier.
// What the MPI tests check end to end (tests/cli/distributed_test.cpp), here in every build,
// the sanitized one included.
#include "agents/collective.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "agents/normalizer.hpp"
#include "agents/ppo.hpp"
#include "base/rng.hpp"
#include "support/thread_collective.hpp"

namespace sysgym::agents {
namespace {

using testing::ThreadCollective;

constexpr int kCollectiveBins = 4;

PpoConfig collective_config() {
  PpoConfig c;
  c.hidden = {16};
  c.rollout_steps = 16;
  c.minibatch_size = 16;
  return c;
}

// One rank's training on observations of its own (seeded by rank): random bits, rewarded for
// copying them.
void train_rank(PpoAgent& agent, std::uint64_t data_seed, int updates) {
  Rng rng(data_seed);
  std::vector<float> obs(2 * kCollectiveBins);
  std::vector<double> actions(2 * kCollectiveBins), rewards(2);
  std::vector<std::uint8_t> ends(2, 0);
  for (int u = 0; u < updates; ++u) {
    while (!agent.ready()) {
      for (float& o : obs)
        o = static_cast<float>(rng.below(2));
      agent.act(obs, true, actions);
      for (std::size_t k = 0; k < 2; ++k) {
        rewards[k] = 0;
        for (std::size_t i = 0; i < kCollectiveBins; ++i)
          rewards[k] +=
              actions[k * kCollectiveBins + i] == obs[k * kCollectiveBins + i] ? 0.25 : 0.0;
      }
      agent.record(rewards, ends, ends, obs);
    }
    agent.update(obs);
  }
}

TEST(Collective, RanksLearningOnDifferentDataKeepTheSameWeights) {
  ThreadCollective all(3);
  std::vector<std::unique_ptr<PpoAgent>> agents;
  std::vector<std::unique_ptr<Collective>> ranks;
  for (int r = 0; r < 3; ++r) {
    agents.push_back(
        std::make_unique<PpoAgent>(kCollectiveBins, kCollectiveBins, 2, collective_config(), 5));
    ranks.push_back(std::make_unique<ThreadCollective::Rank>(all, r));
    agents.back()->set_collective(ranks.back().get(), 100 + static_cast<std::uint64_t>(r));
  }
  std::vector<std::thread> threads;
  for (int r = 0; r < 3; ++r)
    threads.emplace_back([&, r] { train_rank(*agents[static_cast<std::size_t>(r)], 7 + r, 4); });
  for (std::thread& t : threads)
    t.join();
  for (int r = 1; r < 3; ++r) {
    EXPECT_EQ(agents[0]->policy_network().to_json(), agents[r]->policy_network().to_json());
    EXPECT_EQ(agents[0]->value_network().to_json(), agents[r]->value_network().to_json());
    EXPECT_EQ(agents[0]->normalizer().to_json(), agents[r]->normalizer().to_json());
  }
  // Every rank's observations went into the normaliser: 3 ranks x 4 rollouts x 16 steps x 2.
  EXPECT_EQ(agents[0]->normalizer().count(), 3 * 4 * 16 * 2);
  // And the ranks learned from their data together: one process on rank 0's data alone ends
  // elsewhere.
  PpoAgent alone(kCollectiveBins, kCollectiveBins, 2, collective_config(), 5);
  train_rank(alone, 7, 4);
  EXPECT_NE(alone.policy_network().to_json(), agents[0]->policy_network().to_json());
}

TEST(Collective, MergingABatchEqualsUpdatingWithEachObservation) {
  ObservationNormalizer stepwise(2, true), merged(2, true);
  Rng rng(3);
  std::vector<std::vector<float>> first, batch;
  for (int i = 0; i < 50; ++i)
    first.push_back({static_cast<float>(rng.uniform() * 10), static_cast<float>(rng.uniform())});
  for (int i = 0; i < 70; ++i)
    batch.push_back({static_cast<float>(rng.uniform() * 3 - 8), static_cast<float>(rng.uniform())});
  for (const auto& x : first) {
    stepwise.update(x);
    merged.update(x);
  }
  std::vector<double> mean(2, 0.0), m2(2, 0.0);
  for (const auto& x : batch) {
    stepwise.update(x);
    for (std::size_t i = 0; i < 2; ++i)
      mean[i] += x[i] / 70.0;
  }
  for (const auto& x : batch)
    for (std::size_t i = 0; i < 2; ++i)
      m2[i] += (x[i] - mean[i]) * (x[i] - mean[i]);
  merged.merge(70, mean, m2);
  EXPECT_EQ(merged.count(), stepwise.count());
  std::vector<double> a(2), b(2);
  const std::vector<float> probe = {1.5f, 0.25f};
  stepwise.apply(probe, a);
  merged.apply(probe, b);
  for (std::size_t i = 0; i < 2; ++i)
    EXPECT_NEAR(a[i], b[i], 1e-9);
}

}  // namespace
}  // namespace sysgym::agents
