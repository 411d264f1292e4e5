#include "env/vector_env.hpp"

#include <gtest/gtest.h>

#include "support/errors.hpp"

#include "base/error.hpp"
#include "env/line_walk_env.hpp"

namespace sysgym {
namespace {

TEST(VectorEnv, BatchesObservationsRewardsAndFlags) {
  const Registry registry = testing::line_walk_registry();
  VectorEnv envs = VectorEnv::make(registry, "linewalk-v0", {{"length", 3}}, 4);
  envs.reset(1);
  ASSERT_EQ(envs.observations().size(), 8u);
  envs.step(std::vector<double>{2, 1, 0, 2});
  EXPECT_EQ(envs.observations()[0], 0.5f);  // env 0 moved right
  EXPECT_EQ(envs.observations()[2], 0.0f);  // env 1 stayed
  EXPECT_EQ(envs.rewards()[3], -0.01);
  EXPECT_EQ(envs.infos()[3 * 2], 1.0);  // env 3 position
}

TEST(VectorEnv, AutoresetKeepsTheFinalObservation) {
  const Registry registry = testing::line_walk_registry();
  VectorEnv envs = VectorEnv::make(registry, "linewalk-v0", {{"length", 2}}, 2);
  envs.reset(0);
  envs.step(std::vector<double>{2, 1});
  EXPECT_EQ(envs.terminated()[0], 1);
  EXPECT_EQ(envs.terminated()[1], 0);
  EXPECT_EQ(envs.rewards()[0], 1.0);
  EXPECT_EQ(envs.final_observations()[0], 1.0f);  // reached the goal
  EXPECT_EQ(envs.observations()[0], 0.0f);        // already reset
  EXPECT_EQ(envs.final_infos()[0], 1.0);
}

TEST(VectorEnv, AnInvalidActionLeavesEveryEnvUntouched) {
  const Registry registry = testing::line_walk_registry();
  VectorEnv envs = VectorEnv::make(registry, "linewalk-v0", nlohmann::json::object(), 3);
  envs.reset(0);
  EXPECT_EQ(testing::message_of<InvalidActionError>([&] {
              envs.step(std::vector<double>{2, 2, 5});
            }),
            "env 2 action [5] is not in Discrete(3): value is 5, expected an integer in [0, 2]");
  EXPECT_EQ(envs.env(0).info().at("steps"), 0.0);
  EXPECT_THROW(envs.step(std::vector<double>{2, 2}), InvalidActionError);
}

TEST(VectorEnv, SeedsEachEnvDifferentlyAndReproducibly) {
  const Registry registry = testing::line_walk_registry();
  const nlohmann::json config = {{"slip_percent", 50}, {"length", 50}, {"max_steps", 100}};
  auto run = [&](ParallelFor parallel_for) {
    VectorEnv envs = VectorEnv::make(registry, "linewalk-v0", config, 4, std::move(parallel_for));
    envs.reset(7);
    for (int i = 0; i < 30; ++i)
      envs.step(std::vector<double>{2, 2, 2, 2});
    return std::vector<float>(envs.observations().begin(), envs.observations().end());
  };
  const std::vector<float> sequential = run({});
  // Any execution order (as a thread pool would give) yields the same batch.
  const std::vector<float> reversed =
      run([](std::size_t n, const std::function<void(std::size_t)>& body) {
        for (std::size_t i = n; i-- > 0;)
          body(i);
      });
  EXPECT_EQ(sequential, reversed);
  EXPECT_NE(sequential[0], sequential[2]);  // different seeds slip differently
}

TEST(VectorEnv, NeedsAtLeastOneEnv) {
  EXPECT_THROW(VectorEnv(std::vector<std::unique_ptr<Env>>{}), ApiMisuseError);
}

}  // namespace
}  // namespace sysgym
