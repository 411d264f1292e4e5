// looptune-v0: illegal actions are no-ops with a flag and a mask that predicts them, the return
// is the GFLOPS gained over the untuned nest as a share of the peak, episodes are deterministic
// under the cost model, the searches improve on the untuned nest, and bad configs are named.
#include "looptune/looptune_env.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "base/error.hpp"
#include "env/episode.hpp"
#include "looptune/problems.hpp"

namespace sysgym::looptune {
namespace {

struct Family {
  std::shared_ptr<DataStore> data = std::make_shared<DataStore>();
  Registry envs;
  PolicyRegistry policies;
  Family() {
    register_generic_policies(policies);
    register_looptune(envs, data);
    register_looptune_policies(policies);
  }
  EpisodeRecord play(const nlohmann::json& config, const std::string& policy, std::uint64_t seed) {
    auto env = envs.make("looptune-v0", config);
    auto p = policies.make(policy, "looptune-v0");
    return run_episode(*env, *p, policy, seed, false);
  }
};

TEST(LooptuneEnv, IllegalActionsAreFlaggedNoOpsThatTheMaskPredicts) {
  Family f;
  auto env = f.envs.make("looptune-v0", {{"kernel", "matmul:64x80x48"}});
  env->reset(1);
  Rng rng(5);
  double gained = 0;
  double start = env->info().at("gflops");
  for (int i = 0; i < 10; ++i) {
    const auto mask = static_cast<std::uint64_t>(env->info().at("legal_mask"));
    const double action = static_cast<double>(rng.below(kActionCount));
    const double before = env->info().at("gflops");
    const StepResult r = env->step(std::span<const double>(&action, 1));
    const bool legal = ((mask >> static_cast<int>(action)) & 1U) != 0;
    EXPECT_EQ(r.info.at("legal"), legal ? 1.0 : 0.0) << "action " << action;
    if (!legal) {
      EXPECT_EQ(r.info.at("gflops"), before);
    }
    gained += r.reward;
  }
  const nlohmann::json s = env->episode_summary();
  EXPECT_NEAR(gained * env->facts()["model_peak_gflops"].get<double>(),
              s["final_gflops"].get<double>() - start, 1e-9);
  EXPECT_EQ(s["steps"], 10);
}

TEST(LooptuneEnv, SearchesBeatTheUntunedNestAndRepeatExactly) {
  Family f;
  for (const char* kernel : {"matmul:128x192x64", "matmul:256x64x128"}) {
    const nlohmann::json config = {{"kernel", kernel}};
    const nlohmann::json g1 = f.play(config, "greedy1", 0).summary;
    const nlohmann::json g2 = f.play(config, "greedy2", 0).summary;
    EXPECT_GT(g1["speedup"].get<double>(), 2.0) << kernel;
    EXPECT_GE(g2["best_gflops"].get<double>(), g1["best_gflops"].get<double>()) << kernel;
  }
  // A convolution's untuned nest ends in its 3 x 3 window: no one or two actions help (the wide
  // loops are three swaps away), so greedy search stays put where a learned policy must not.
  for (const char* kernel : {"matmul:96x64x80", "conv3x3:1x16x16x16x16"}) {
    const nlohmann::json config = {{"kernel", kernel}};
    EXPECT_EQ(f.play(config, "random", 4).summary, f.play(config, "random", 4).summary);
    EXPECT_GE(f.play(config, "greedy1", 0).summary["speedup"].get<double>(), 1.0);
  }
}

TEST(LooptuneEnv, TheFrameIsTheNestAndTheInfoTheActionTaken) {
  Family f;
  auto env = f.envs.make("looptune-v0", {{"kernel", "matmul:64x80x48"}});
  env->reset(0);
  EXPECT_EQ(env->info().at("action"), -1.0);
  const nlohmann::json context = env->frame_context();
  EXPECT_EQ(context["kernel"], "matmul:64x80x48");
  EXPECT_EQ(context["vars"][1]["name"], "n");
  EXPECT_EQ(context["start_gflops"].get<double>(), env->info().at("gflops"));
  for (const Action a : {Action::kDown, Action::kSplit8, Action::kSwapDown}) {
    const double action = static_cast<double>(a);
    env->step(std::span<const double>(&action, 1));
    EXPECT_EQ(env->info().at("action"), action);
  }
  const auto& tuned = dynamic_cast<const LooptuneEnv&>(*env);
  const LoopNest& nest = tuned.schedule().nest;
  const Frame frame = env->frame();
  ASSERT_EQ(frame.size(), 1u);
  const auto rows = std::get<std::span<const std::uint32_t>>(frame[0].values);
  ASSERT_EQ(rows.size(), 10u * 5);
  for (std::size_t i = 0; i < 10; ++i) {
    if (i < nest.size()) {
      EXPECT_EQ(rows[i * 5], nest.loop(i).var + 1);
      EXPECT_EQ(rows[i * 5 + 1], nest.loop(i).size);
      EXPECT_EQ(rows[i * 5 + 2], nest.loop(i).tail);
    } else {
      EXPECT_EQ(rows[i * 5], 0u) << "rows past the nest are zeros";
    }
  }
}

TEST(LooptuneEnv, TheBenchmarkSetsSplitLoopTunesMatmuls) {
  const auto train = problem_set("matmul-train");
  const auto test = problem_set("matmul-test");
  EXPECT_EQ(train.size() + test.size(), 13u * 13 * 13);
  EXPECT_GT(test.size(), 150u);
  EXPECT_LT(test.size(), 300u);
  for (const std::string& spec : test)
    EXPECT_EQ(std::find(train.begin(), train.end(), spec), train.end()) << spec;
  Family f;
  auto env = f.envs.make("looptune-v0", {{"kernel", "matmul-test"}});
  EXPECT_EQ(env->facts()["problems"], test.size());
}

TEST(LooptuneEnv, TheRandomSetsDrawSizesOffLoopTunesGridAndKeepTheirSplitsApart) {
  for (const char* kind : {"matmul", "conv"}) {
    const std::string name = std::string(kind) + "-random-";
    const auto train = problem_set(name + "train");
    const auto test = problem_set(name + "test");
    const std::size_t draws = std::string(kind) == "matmul" ? 2000 : 400;
    EXPECT_GT(train.size() + test.size(), draws * 95 / 100) << kind;
    EXPECT_GT(test.size(), draws / 20) << kind;
    EXPECT_LT(test.size(), draws * 3 / 20) << kind;
    for (const std::string& spec : test)
      EXPECT_EQ(std::find(train.begin(), train.end(), spec), train.end()) << spec;
    EXPECT_EQ(problem_set(name + "test"), test) << "the same sets on every call";
  }
  // No set's held-out problem is in any training set: the policies train on either family's sets.
  std::vector<std::string> trained, held_out;
  for (const std::string& name : problem_set_names()) {
    const auto set = problem_set(name);
    (name.ends_with("-test") ? held_out : trained)
        .insert((name.ends_with("-test") ? held_out : trained).end(), set.begin(), set.end());
  }
  std::sort(trained.begin(), trained.end());
  for (const std::string& spec : held_out)
    EXPECT_FALSE(std::binary_search(trained.begin(), trained.end(), spec)) << spec;
  bool off_grid = false;
  bool large = false;
  for (const std::string& spec : problem_set("matmul-random-train")) {
    const std::shared_ptr<const Problem> p = problem_from_spec(spec);
    for (const Var& v : p->vars) {
      EXPECT_GE(v.size, 16) << spec;
      EXPECT_LE(v.size, 512) << spec;
      off_grid = off_grid || v.size % 16 != 0;
      large = large || v.size >= 384;
    }
  }
  EXPECT_TRUE(off_grid && large) << "sizes that are not multiples of 16, and some of 384 or more";
  EXPECT_TRUE(problem_set("matmul-random-other").empty());
}

TEST(LooptuneEnv, BadConfigsAreNamed) {
  Family f;
  const auto error = [&](const nlohmann::json& config) {
    try {
      f.envs.make("looptune-v0", config);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error({{"kernel", "matmul:0x4x4"}}).find("size 0 is not 1 to 65536"),
            std::string::npos);
  EXPECT_NE(error({{"kernel", "gemm:4x4x4"}}).find("not matmul:MxNxK"), std::string::npos);
  EXPECT_NE(error({{"kernel", "conv3x3:1x2x3x4x5"}, {"max_loops", 4}}).find("more than max_loops"),
            std::string::npos);
  EXPECT_NE(error({{"problem", "nope.json"}}).find("'problem'"), std::string::npos);
  EXPECT_NE(error({{"cost_model", {{"call_nss", 3}}}}).find("call_ns"), std::string::npos);
  EXPECT_NE(error({{"reward", "measured"}}).find("measure"), std::string::npos);
}

}  // namespace
}  // namespace sysgym::looptune
