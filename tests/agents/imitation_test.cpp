#include "agents/imitation.hpp"

#include <gtest/gtest.h>

#include "agents/policy_file.hpp"
#include "base/error.hpp"

namespace sysgym::agents {
namespace {

// Two features in [-1, 1]; the action is 1 when x0 + x1 > 0.6: a rare class (about a fifth).
void separable(std::size_t n, std::vector<std::vector<float>>& x, std::vector<int>& y) {
  Rng rng(11);
  for (std::size_t i = 0; i < n; ++i) {
    const float a = static_cast<float>(2 * rng.uniform() - 1);
    const float b = static_cast<float>(2 * rng.uniform() - 1);
    x.push_back({a, b});
    y.push_back(a + b > 0.6f ? 1 : 0);
  }
}

TEST(Imitation, LearnsALabelledBoundaryIncludingTheRareAction) {
  std::vector<std::vector<float>> x;
  std::vector<int> y;
  separable(2000, x, y);
  ImitationConfig config;
  config.hidden = {16};
  config.epochs = 60;
  const ImitationResult r = train_imitation(x, y, 2, config);
  EXPECT_GE(r.accuracy, 0.95);
  EXPECT_GE(r.balanced_accuracy, 0.95);
  EXPECT_LT(r.epoch_loss.back(), r.epoch_loss.front());
  // The same seed, the same network.
  EXPECT_EQ(train_imitation(x, y, 2, config).network.to_json(), r.network.to_json());

  // As a policy file it acts by the argmax of its scores.
  PolicyFile file;
  file.agent = "imitation";
  file.env_id = "inline-v0";
  file.env_config = nlohmann::json::object();
  file.action_space = "Discrete(2)";
  file.observation_layout = {"x0", "x1"};
  file.normalizer = ObservationNormalizer(2, false);
  file.network = r.network;
  const PolicyFile loaded = PolicyFile::from_json(file.to_json());
  std::vector<double> action;
  const std::vector<float> inside = {0.9f, 0.8f}, outside = {-0.5f, 0.1f};
  loaded.act(inside, action);
  EXPECT_EQ(action, std::vector<double>{1});
  loaded.act(outside, action);
  EXPECT_EQ(action, std::vector<double>{0});
}

TEST(Imitation, NamesBadExamples) {
  EXPECT_THROW(train_imitation({}, {}, 2, {}), ConfigError);
  EXPECT_THROW(train_imitation({{1.0f}}, {2}, 2, {}), ConfigError);
  EXPECT_THROW(train_imitation({{1.0f}, {1.0f, 2.0f}}, {0, 1}, 2, {}), ConfigError);
  ImitationConfig none;
  none.epochs = 0;
  EXPECT_THROW(train_imitation({{1.0f}}, {0}, 2, none), ConfigError);
}

}  // namespace
}  // namespace sysgym::agents
