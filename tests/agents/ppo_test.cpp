#include "agents/ppo.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "support/errors.hpp"

namespace sysgym::agents {
namespace {

// K copies of a contextual task over 4 bins: each step shows which bins are hot (0/1) and pays
// the fraction of bins whose action matches (hot bins in, cold bins out). Episodes are cut
// after 8 steps. A random policy earns 0.5 per step; the best earns 1.
struct HotBins {
  static constexpr int kBins = 4;
  int envs;
  Rng rng{17};
  std::vector<float> obs;
  std::vector<double> rewards;
  std::vector<std::uint8_t> terminated, truncated;
  std::vector<int> steps;
  explicit HotBins(int k)
      : envs(k),
        obs(static_cast<std::size_t>(k * kBins)),
        rewards(static_cast<std::size_t>(k)),
        terminated(static_cast<std::size_t>(k)),
        truncated(static_cast<std::size_t>(k)),
        steps(static_cast<std::size_t>(k)) {
    for (float& o : obs)
      o = static_cast<float>(rng.below(2));
  }
  // Steps every env; returns the mean reward.
  double step(const std::vector<double>& actions) {
    double total = 0;
    for (std::size_t k = 0; k < static_cast<std::size_t>(envs); ++k) {
      double match = 0;
      for (std::size_t i = 0; i < kBins; ++i)
        match += actions[k * kBins + i] == obs[k * kBins + i] ? 1.0 : 0.0;
      rewards[k] = match / kBins;
      total += rewards[k];
      truncated[k] = ++steps[k] % 8 == 0 ? 1 : 0;
      for (std::size_t i = 0; i < kBins; ++i)
        obs[k * kBins + i] = static_cast<float>(rng.below(2));
    }
    return total / envs;
  }
};

PpoConfig small_config() {
  PpoConfig c;
  c.hidden = {32};
  c.learning_rate = 3e-3;
  c.rollout_steps = 32;
  c.minibatch_size = 64;
  c.gamma = 0.5;
  return c;
}

// Mean reward per step of the greedy policy over 200 steps.
double greedy_reward(PpoAgent& agent, HotBins& env) {
  std::vector<double> actions(static_cast<std::size_t>(env.envs * HotBins::kBins));
  double total = 0;
  for (int t = 0; t < 200; ++t) {
    agent.act(env.obs, false, actions);
    total += env.step(actions);
  }
  return total / 200;
}

void train(PpoAgent& agent, HotBins& env, int updates) {
  std::vector<double> actions(static_cast<std::size_t>(env.envs * HotBins::kBins));
  for (int u = 0; u < updates; ++u) {
    while (!agent.ready()) {
      agent.act(env.obs, true, actions);
      env.step(actions);
      agent.record(env.rewards, env.terminated, env.truncated, env.obs);
    }
    agent.update(env.obs);
  }
}

TEST(Ppo, ImprovesTheReturnOfATinyEnv) {
  HotBins env(4);
  PpoAgent agent(HotBins::kBins, HotBins::kBins, 4, small_config(), 3);
  const double before = greedy_reward(agent, env);
  train(agent, env, 40);
  const double after = greedy_reward(agent, env);
  EXPECT_LT(before, 0.8);
  EXPECT_GT(after, 0.95) << "before " << before;
  EXPECT_EQ(agent.updates(), 40);
  EXPECT_EQ(agent.env_steps(), 40 * 32 * 4);
}

// HotBins as memtier lays out observations: per bin the hot flag, then a residency channel
// (here always 0), then one scalar; a per-bin network reads it bin by bin.
struct ChanneledHotBins : HotBins {
  std::vector<float> view;
  explicit ChanneledHotBins(int k) : HotBins(k) { refresh(); }
  void refresh() {
    view.assign(static_cast<std::size_t>(envs * (2 * kBins + 1)), 0.0f);
    for (std::size_t k = 0; k < static_cast<std::size_t>(envs); ++k) {
      for (std::size_t i = 0; i < kBins; ++i)
        view[k * (2 * kBins + 1) + i] = obs[k * kBins + i];
    }
  }
};

TEST(Ppo, APerBinNetworkLearnsTheTinyEnvWithOneScoreForEveryBin) {
  ChanneledHotBins env(4);
  PpoConfig config = small_config();
  config.per_bin = true;
  const int size = 2 * HotBins::kBins + 1;
  const EntityLayout entities{"bin", HotBins::kBins, 2, 1, {}};
  EXPECT_EQ(testing::message_of<ConfigError>([&] { PpoAgent(size, HotBins::kBins, 4, config, 3); }),
            "a per-bin network needs an env that declares its entities (Env::entity_layout); this "
            "one declares none");
  PpoAgent agent(size, HotBins::kBins, 4, config, 3, entities);
  ASSERT_TRUE(agent.bin_view().has_value());
  EXPECT_EQ(agent.policy_network().inputs(), 2 + 2 + 1);  // channels, two ranks, one scalar
  EXPECT_EQ(agent.policy_network().outputs(), 1);
  std::vector<double> actions(static_cast<std::size_t>(4 * HotBins::kBins));
  const auto greedy = [&] {
    double total = 0;
    for (int t = 0; t < 100; ++t) {
      agent.act(env.view, false, actions);
      total += env.step(actions);
      env.refresh();
    }
    return total / 100;
  };
  const double before = greedy();
  for (int u = 0; u < 30; ++u) {
    while (!agent.ready()) {
      agent.act(env.view, true, actions);
      env.step(actions);
      env.refresh();
      agent.record(env.rewards, env.terminated, env.truncated, env.view);
    }
    agent.update(env.view);
  }
  EXPECT_GT(greedy(), 0.95) << "before " << before;
}

TEST(Ppo, AnAgentLoadedFromAnotherStateLearnsOnIdentically) {
  HotBins e1(2), e2(2);
  PpoAgent a(HotBins::kBins, HotBins::kBins, 2, small_config(), 8);
  train(a, e1, 3);
  PpoAgent b(HotBins::kBins, HotBins::kBins, 2, small_config(), 1);
  b.load_state(nlohmann::json::from_cbor(nlohmann::json::to_cbor(a.state())));
  EXPECT_EQ(b.updates(), 3);
  e2.rng = e1.rng;
  e2.obs = e1.obs;
  e2.steps = e1.steps;
  train(a, e1, 2);
  train(b, e2, 2);
  EXPECT_EQ(a.policy_network().to_json(), b.policy_network().to_json());
  EXPECT_EQ(a.value_network().to_json(), b.value_network().to_json());
}

TEST(Ppo, SameSeedGivesIdenticalWeights) {
  HotBins e1(2), e2(2);
  PpoAgent a(HotBins::kBins, HotBins::kBins, 2, small_config(), 8);
  PpoAgent b(HotBins::kBins, HotBins::kBins, 2, small_config(), 8);
  train(a, e1, 3);
  train(b, e2, 3);
  EXPECT_EQ(a.policy_network().to_json(), b.policy_network().to_json());
  EXPECT_EQ(a.value_network().to_json(), b.value_network().to_json());
}

TEST(Ppo, MisuseAndBadConfigsAreClearErrors) {
  HotBins env(1);
  PpoAgent agent(HotBins::kBins, HotBins::kBins, 1, small_config(), 1);
  EXPECT_EQ(testing::message_of<ApiMisuseError>([&] { agent.update(env.obs); }),
            "PPO update() before a full rollout");
  EXPECT_EQ(testing::message_of<ConfigError>([] {
              PpoConfig::from_json({{"clip", 3}});
            }),
            "ppo: 'clip' must be a number in [0.01, 1.0], got 3");
  EXPECT_EQ(PpoConfig::from_json(PpoConfig().to_json()).to_json(), PpoConfig().to_json());
}

}  // namespace
}  // namespace sysgym::agents
