#include "tensorplace/tensorplace_env.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "env/episode.hpp"
#include "tensorplace/graph_json.hpp"
#include "tensorplace/zoo/zoo.hpp"

namespace sysgym::tensorplace {
namespace {

struct Family {
  std::shared_ptr<DataStore> data = std::make_shared<DataStore>();
  Registry envs;
  PolicyRegistry policies;
  Family() {
    register_generic_policies(policies);
    register_tensorplace(envs, data);
    register_tensorplace_policies(policies);
  }
  EpisodeRecord play(const nlohmann::json& config, const std::string& policy) {
    auto env = envs.make("tensorplace", config);
    auto p = policies.make(policy, "tensorplace-v0");
    return run_episode(*env, *p, policy, 3, false);
  }
};

std::string config_error(Family& f, const nlohmann::json& config) {
  try {
    f.envs.make("tensorplace", config);
  } catch (const Error& e) {
    return std::string(e.kind()) + ": " + e.what();
  }
  return "accepted";
}

TEST(TensorplaceEnv, TheBoundsAreReachedByTheirPolicies) {
  Family f;
  const nlohmann::json roomy = {
      {"model", "resnet50"}, {"batch", 4}, {"fast_memory", "100%"}, {"start", "fast-while-fits"}};
  const EpisodeRecord fast = f.play(roomy, "all-fast");
  EXPECT_DOUBLE_EQ(fast.summary["iteration_ms"].get<double>(),
                   fast.summary["all_fast_ms"].get<double>());
  EXPECT_DOUBLE_EQ(fast.summary["gap_closed"].get<double>(), 1.0);
  const EpisodeRecord slow = f.play({{"model", "resnet50"}, {"batch", 4}}, "all-slow");
  EXPECT_DOUBLE_EQ(slow.summary["iteration_ms"].get<double>(),
                   slow.summary["all_slow_ms"].get<double>());
  // The all-fast bound is the simulator's: every kernel's all-fast roofline time, summed.
  const Graph g = zoo_graph("resnet50", 4);
  double sum = 0;
  for (std::uint32_t k = 0; k < g.kernels().size(); ++k)
    sum += kernel_time(g, k, 0U, platform_named("optane"));
  EXPECT_DOUBLE_EQ(fast.summary["all_fast_ms"].get<double>(), sum * 1e3);
}

TEST(TensorplaceEnv, TheReturnIsMinusTheSlowdownAndTheLimitHoldsAtEveryKernel) {
  Family f;
  for (const char* share : {"5%", "30%", "1:1"}) {
    auto env = f.envs.make("tensorplace",
                           {{"model", "inception_v4"}, {"batch", 2}, {"fast_memory", share}});
    const auto limit = env->facts()["fast_limit_bytes"].get<double>();
    auto random = f.policies.make("random", env->id());
    Rng rng(5);
    env->reset(7);
    random->reset(*env, rng);
    double ret = 0;
    Decision d;
    for (bool done = false; !done;) {
      random->decide(*env, d);
      const StepResult r = env->step(d.action);
      EXPECT_LE(r.info.at("fast_bytes"), limit) << share;
      ret += r.reward;
      done = r.terminated || r.truncated;
    }
    EXPECT_NEAR(ret, -env->episode_summary()["slowdown"].get<double>(), 1e-9) << share;
  }
}

TEST(TensorplaceEnv, FastMemoryIsAShareARatioOrASize) {
  EXPECT_EQ(parse_fast_memory("50%", 1000, "k"), 500u);
  EXPECT_EQ(parse_fast_memory("1:4", 1000, "k"), 800u);
  EXPECT_EQ(parse_fast_memory("8GiB", 1000, "k"), std::uint64_t{8} << 30);
  EXPECT_EQ(parse_fast_memory(4096, 1000, "k"), 4096u);
  EXPECT_THROW(parse_fast_memory("150%", 1000, "k"), ConfigError);
  EXPECT_THROW(parse_fast_memory("0:0", 1000, "k"), ConfigError);
  EXPECT_THROW(parse_fast_memory("lots", 1000, "k"), ConfigError);
  EXPECT_THROW(parse_fast_memory(-3, 1000, "k"), ConfigError);
}

TEST(TensorplaceEnv, BadConfigsAreNamed) {
  Family f;
  EXPECT_NE(config_error(f, {{"model", "resnet51"}}).find("did you mean 'resnet50'"),
            std::string::npos);
  EXPECT_NE(config_error(f, {{"graph", "g.json"}}).find("'graph'"), std::string::npos);
  EXPECT_NE(config_error(f, {{"fast_memory", "150%"}}).find("'fast_memory'"), std::string::npos);
  EXPECT_NE(config_error(f, {{"platform", "tpu"}}).find("UnknownNameError"), std::string::npos);
  EXPECT_NE(config_error(f, {{"slot", 4}}).find("did you mean 'slots'"), std::string::npos);
  // A graph file from the data store runs like a zoo model.
  f.data->add("g.json",
              std::make_shared<const std::string>(graph_to_json(zoo_graph("vgg16", 2)).dump()));
  const EpisodeRecord r = f.play({{"graph", "g.json"}}, "first-touch");
  EXPECT_EQ(r.summary["kernels_run"], zoo_graph("vgg16", 2).kernels().size());
}

}  // namespace
}  // namespace sysgym::tensorplace
