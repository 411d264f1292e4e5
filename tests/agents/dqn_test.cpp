#include "agents/dqn.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "support/corridor.hpp"
#include "support/errors.hpp"

namespace sysgym::agents {
namespace {

using testing::Corridor;

void train(DqnAgent& agent, long steps) {
  Corridor env;
  for (long t = 0; t < steps; ++t) {
    const std::vector<float> obs = env.observation();
    const int action = agent.act(obs, true);
    const auto [reward, terminal, truncated] = env.step(action);
    agent.observe(obs, action, reward, env.observation(), terminal);
    if (terminal || truncated) env = Corridor{};
  }
}

TEST(Dqn, LearnsTheOptimalPolicyOfATinyEnvInBoundedSteps) {
  for (std::uint64_t seed : {11, 12, 13, 14, 15}) {
    DqnAgent agent(Corridor::kCells, 2, testing::corridor_dqn_config(), seed);
    train(agent, 3000);
    for (int cell = 1; cell < Corridor::kCells - 1; ++cell) {
      Corridor env;
      env.cell = cell;
      EXPECT_EQ(agent.act(env.observation(), false), 1) << "seed " << seed << " cell " << cell;
    }
    EXPECT_NEAR(agent.epsilon(), 0.05, 1e-12);
    EXPECT_EQ(agent.updates(), 3000 - 200 + 1);
  }
}

TEST(Dqn, SameSeedGivesIdenticalWeights) {
  DqnAgent a(Corridor::kCells, 2, testing::corridor_dqn_config(), 5),
      b(Corridor::kCells, 2, testing::corridor_dqn_config(), 5);
  train(a, 600);
  train(b, 600);
  EXPECT_EQ(a.q_network().to_json(), b.q_network().to_json());
  DqnAgent c(Corridor::kCells, 2, testing::corridor_dqn_config(), 6);
  train(c, 600);
  EXPECT_NE(a.q_network().to_json(), c.q_network().to_json());
}

TEST(Dqn, AnAgentLoadedFromAnotherStateLearnsOnIdentically) {
  DqnAgent a(Corridor::kCells, 2, testing::corridor_dqn_config(), 5);
  train(a, 600);
  // A fresh agent of another seed takes over a's whole learning state (replay, optimizer,
  // target network, generator, counters): from here on both learn the same.
  DqnAgent b(Corridor::kCells, 2, testing::corridor_dqn_config(), 99);
  b.load_state(nlohmann::json::from_cbor(nlohmann::json::to_cbor(a.state())));
  EXPECT_EQ(b.env_steps(), 600);
  EXPECT_EQ(b.updates(), a.updates());
  // The state holds the 600 transitions stored, not the capacity of 100,000; a state written
  // with every row (as checkpoints were before) loads the same.
  const nlohmann::json state = a.state();
  EXPECT_EQ(state["replay"]["action"].get_binary().size(), 600 * sizeof(int));
  EXPECT_EQ(state["replay"]["obs"].get_binary().size(), 600 * Corridor::kCells * sizeof(float));
  nlohmann::json padded = state;
  for (const char* key : {"obs", "next_obs", "action", "reward", "terminal"}) {
    auto& bytes = padded["replay"][key].get_binary();
    bytes.resize(bytes.size() / 600 * 100000, 0);
  }
  DqnAgent old(Corridor::kCells, 2, testing::corridor_dqn_config(), 98);
  old.load_state(padded);
  train(a, 400);
  train(b, 400);
  train(old, 400);
  EXPECT_EQ(a.q_network().to_json(), b.q_network().to_json());
  EXPECT_EQ(a.q_network().to_json(), old.q_network().to_json());
  EXPECT_EQ(a.epsilon(), b.epsilon());

  DqnConfig wider = testing::corridor_dqn_config();
  wider.hidden = {64};
  DqnAgent c(Corridor::kCells, 2, wider, 5);
  EXPECT_EQ(testing::message_of<ConfigError>([&] { c.load_state(a.state()); }),
            "checkpoint: the Q network's layer sizes differ from the agent's (another "
            "architecture)");
  EXPECT_EQ(testing::message_of<ConfigError>([&] {
              c.load_state({{"q", 1}});
            }),
            "checkpoint: the Q network: a network needs \"sizes\" and \"layers\"");
  EXPECT_EQ(testing::message_of<ConfigError>([&] { c.load_state(nlohmann::json::object()); }),
            "checkpoint: DQN state is incomplete or malformed: key 'q' not found");
}

TEST(Dqn, ConfigKeysAreChecked) {
  EXPECT_EQ(DqnConfig::from_json({{"gamma", 0.9}, {"hidden", {64, 64}}}).hidden,
            (std::vector<int>{64, 64}));
  EXPECT_EQ(testing::message_of<ConfigError>([] {
              DqnConfig::from_json({{"learning_rte", 1e-3}});
            }).substr(0, 64),
            "dqn: unknown key 'learning_rte' (did you mean 'learning_rate'?);");
  EXPECT_THROW(DqnConfig::from_json({{"hidden", {0}}}), ConfigError);
  EXPECT_EQ(DqnConfig::from_json(DqnConfig().to_json()).to_json(), DqnConfig().to_json());
}

TEST(ObservationNormalizer, DisabledPassesObservationsThroughAndSavesAsNull) {
  ObservationNormalizer off(3, false), on(3, true);
  const std::vector<float> x = {2.0f, -1.0f, 0.5f};
  off.update(x);
  on.update(x);
  on.update(std::vector<float>{0.0f, 1.0f, 0.5f});
  std::vector<double> out(3);
  off.apply(x, out);
  EXPECT_EQ(out, (std::vector<double>{2.0, -1.0, 0.5}));
  EXPECT_EQ(off.count(), 0);
  EXPECT_TRUE(off.to_json().is_null());
  EXPECT_FALSE(ObservationNormalizer::from_json(nullptr, 3).enabled());
  on.apply(x, out);
  EXPECT_NEAR(out[0], 1.0, 1e-6);  // mean 1, variance 1
  const ObservationNormalizer loaded = ObservationNormalizer::from_json(on.to_json(), 3);
  std::vector<double> again(3);
  loaded.apply(x, again);
  EXPECT_EQ(out, again);
}

TEST(Argmax, TiesGoToTheLowerIndex) {
  const std::vector<double> v = {1.0, 3.0, 3.0, 2.0};
  EXPECT_EQ(argmax(v), 1);
}

}  // namespace
}  // namespace sysgym::agents
