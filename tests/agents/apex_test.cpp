// Ape-X DQN with ranks as threads (support/thread_collective.hpp): a learner and its actors
// learning a tiny env together, and whole distributed runs through the Trainer. The MPI runs
// of the tool are tests/cli/distributed_test.cpp; these run in every build, the sanitized one
// included.
#include "agents/apex.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "agents/trainer.hpp"
#include "support/corridor.hpp"
#include "support/memtier_registry.hpp"
#include "support/thread_collective.hpp"

namespace sysgym::agents {
namespace {

using testing::Corridor;
using testing::ThreadCollective;

DqnConfig apex_corridor_config() {
  DqnConfig c = testing::corridor_dqn_config();
  c.broadcast_every = 10;
  return c;
}

// Every rank steps a corridor of its own for `rounds` Ape-X rounds; returns the ranks' agents.
std::vector<std::unique_ptr<DqnAgent>> apex_corridor(int ranks, int rounds, std::uint64_t seed) {
  ThreadCollective all(ranks);
  std::vector<std::unique_ptr<DqnAgent>> agents;
  for (int r = 0; r < ranks; ++r)
    agents.push_back(std::make_unique<DqnAgent>(Corridor::kCells, 2, apex_corridor_config(), seed));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      ThreadCollective::Rank rank(all, r);
      DqnAgent& agent = *agents[static_cast<std::size_t>(r)];
      agent.reseed(seed * 100 + static_cast<std::uint64_t>(r));
      ApexExchange apex(rank, agent, 1);
      Corridor env;
      for (int round = 0; round < rounds; ++round) {
        for (std::int64_t s = 0; s < apex.steps_per_round(); ++s) {
          const std::vector<float> obs = env.observation();
          const int action = agent.act(obs, true);
          const auto [reward, terminal, truncated] = env.step(action);
          apex.keep(obs, action, reward, env.observation(), terminal);
          if (terminal || truncated) env = Corridor{};
        }
        apex.finish_round();
      }
    });
  }
  for (std::thread& t : threads)
    t.join();
  return agents;
}

TEST(ApeX, ALearnerAndItsActorsLearnATinyEnvTogether) {
  constexpr int kRounds = 300;
  for (std::uint64_t seed : {11, 12, 13}) {
    const auto agents = apex_corridor(3, kRounds, seed);
    // Every rank ends with the learner's weights, and every rank's experience reached it.
    for (const auto& agent : agents) {
      EXPECT_EQ(agent->q_network().to_json(), agents[0]->q_network().to_json());
      EXPECT_EQ(agent->normalizer().to_json(), agents[0]->normalizer().to_json());
      EXPECT_EQ(agent->env_steps(), 3 * kRounds * 10);  // the epsilon schedule's global count
    }
    // broadcast_every updates a round once 200 transitions were stored (20 rounds of 3 x 10,
    // learned on from round 7: the learner learns before it gathers the round's experience).
    EXPECT_EQ(agents[0]->updates(), 10 * (kRounds - 7));
    for (int cell = 1; cell < Corridor::kCells - 1; ++cell) {
      Corridor env;
      env.cell = cell;
      EXPECT_EQ(agents[2]->act(env.observation(), false), 1) << "seed " << seed << " cell " << cell;
    }
  }
}

TEST(ApeX, TheSameSeedAndRankCountGiveTheSameWeights) {
  const auto a = apex_corridor(2, 40, 5), b = apex_corridor(2, 40, 5), c = apex_corridor(3, 40, 5);
  EXPECT_EQ(a[0]->q_network().to_json(), b[0]->q_network().to_json());
  EXPECT_NE(a[0]->q_network().to_json(), c[0]->q_network().to_json());
}

TrainerOptions apex_options() {
  TrainerOptions o;
  o.agent = "dqn";
  o.env_id = "memtier-v0";
  for (const char* capacity : {"10%", "25%"}) {
    o.env_configs.push_back({{"trace", "synth:phased:20000:5:32"},
                             {"bins", 16},
                             {"episode_length", 32},
                             {"hbm_capacity", capacity}});
  }
  // Rounds of 8 updates x 4 steps each: 16 vector steps of 2 envs on each rank.
  o.agent_config = {{"hidden", {32}}, {"learning_starts", 64}, {"broadcast_every", 8}};
  o.seed = 3;
  o.curve_every = 256;
  return o;
}

// Every rank's trained policy and rank 0's training state.
std::pair<std::vector<PolicyFile>, nlohmann::json> train_ranks(int ranks, std::int64_t steps) {
  ThreadCollective all(ranks);
  std::vector<PolicyFile> policies(static_cast<std::size_t>(ranks));
  nlohmann::json state;
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r) {
    threads.emplace_back([&, r] {
      ThreadCollective::Rank rank(all, r);
      Trainer trainer(testing::memtier_registry(), apex_options(), {}, &rank);
      trainer.train_until(steps);
      policies[static_cast<std::size_t>(r)] = trainer.policy();
      if (r == 0) state = trainer.state();
    });
  }
  for (std::thread& t : threads)
    t.join();
  return {policies, state};
}

TEST(ApeX, DistributedDqnTrainsThroughTheTrainerAndResumesOnOneRank) {
  const auto [policies, state] = train_ranks(2, 2048);
  // 32 rounds of 2 ranks x 16 vector steps x 2 envs.
  EXPECT_EQ(policies[0].training["env_steps"], 2048);
  EXPECT_EQ(policies[0].training["ranks"], 2);
  EXPECT_EQ(policies[0].training["episodes"], 2048 / 32);
  EXPECT_EQ(policies[0].normalizer.count(), 2048);  // the learner saw every rank's steps
  EXPECT_EQ(policies[1].network.to_json(), policies[0].network.to_json());
  EXPECT_EQ(train_ranks(2, 2048).first[0].network.to_json(), policies[0].network.to_json());

  // Rank 0's state holds the learner's replay: one process continues from it.
  Trainer alone(testing::memtier_registry(), Trainer::options_of_state(state));
  alone.load_state(state);
  EXPECT_EQ(alone.env_steps(), 2048);
  alone.train_until(2048 + 512);
  EXPECT_EQ(alone.policy().training["env_steps"], 2048 + 512);
  EXPECT_GE(alone.policy().training["episodes"].get<int>(), 2048 / 32);
  EXPECT_NE(alone.policy().network.to_json(), policies[0].network.to_json());
}

}  // namespace
}  // namespace sysgym::agents
