#include "env/env.hpp"

#include <gtest/gtest.h>

#include "support/errors.hpp"

#include "base/error.hpp"
#include "env/line_walk_env.hpp"

namespace sysgym {
namespace {

using testing::LineWalkEnv;

const std::vector<double> kRight = {2};

TEST(Env, StepBeforeResetIsAnApiMisuse) {
  LineWalkEnv env(nlohmann::json::object());
  EXPECT_EQ(testing::message_of<ApiMisuseError>([&] { env.step(kRight); }),
            "linewalk-v0: step() called without an active episode; call reset() first (after the "
            "first reset, and again once terminated or truncated)");
}

TEST(Env, ActionOutsideTheSpaceNamesEnvActionAndSpace) {
  LineWalkEnv env(nlohmann::json::object());
  env.reset(1);
  EXPECT_EQ(
      testing::message_of<InvalidActionError>([&] { env.step(std::vector<double>{3}); }),
      "linewalk-v0 action [3] is not in Discrete(3): value is 3, expected an integer in [0, 2]");
  // The env is untouched and can go on.
  EXPECT_EQ(env.step(kRight).info.at("position"), 1.0);
}

TEST(Env, TerminatesAtTheGoalAndRefusesFurtherSteps) {
  LineWalkEnv env(nlohmann::json{{"length", 3}});
  const ResetResult start = env.reset(0);
  EXPECT_EQ(start.observation[0], 0.0f);
  EXPECT_FALSE(env.step(kRight).terminated);
  const StepResult last = env.step(kRight);
  EXPECT_TRUE(last.terminated);
  EXPECT_FALSE(last.truncated);
  EXPECT_EQ(last.reward, 1.0);
  EXPECT_EQ(last.observation[0], 1.0f);
  EXPECT_THROW(env.step(kRight), ApiMisuseError);
}

TEST(Env, TruncatesAtTheStepLimitWithoutTerminating) {
  LineWalkEnv env(nlohmann::json{{"max_steps", 2}});
  env.reset(0);
  const std::vector<double> stay = {1};
  EXPECT_FALSE(env.step(stay).truncated);
  const StepResult r = env.step(stay);
  EXPECT_TRUE(r.truncated);
  EXPECT_FALSE(r.terminated);
}

TEST(Env, SameSeedSameEpisodeDifferentSeedDifferentEpisode) {
  auto episode = [](std::uint64_t seed) {
    LineWalkEnv env(nlohmann::json{{"slip_percent", 50}, {"max_steps", 40}, {"length", 30}});
    env.reset(seed);
    std::vector<double> positions;
    for (int i = 0; i < 40; ++i) {
      const StepResult r = env.step(kRight);
      positions.push_back(r.info.at("position"));
      if (r.terminated || r.truncated) break;
    }
    return positions;
  };
  EXPECT_EQ(episode(3), episode(3));
  EXPECT_NE(episode(3), episode(4));
}

TEST(Env, ResetOptionsReachTheEnv) {
  LineWalkEnv env(nlohmann::json::object());
  EXPECT_EQ(env.reset(0, {{"start", 2}}).info.at("position"), 2.0);
}

TEST(Env, InfoIsStructuredAndJsonable) {
  LineWalkEnv env(nlohmann::json::object());
  const ResetResult r = env.reset(0);
  EXPECT_EQ(r.info.to_json(), (nlohmann::json{{"position", 0.0}, {"steps", 0.0}}));
  EXPECT_EQ(testing::message_of<UnknownNameError>([&] { r.info.at("postion"); }),
            "unknown info key 'postion' (did you mean 'position'?); valid: position, steps");
}

}  // namespace
}  // namespace sysgym
