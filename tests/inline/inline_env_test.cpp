#include "inline/inline_env.hpp"

#include <gtest/gtest.h>

#include <map>

#include "base/data_store.hpp"
#include "base/error.hpp"
#include "builtins/builtins.hpp"
#include "env/episode.hpp"
#include "inline/embedded_program.hpp"

namespace sysgym::inlining {
namespace {

// No data files: the env falls back on the compiled-in "kernels".
std::unique_ptr<InlineEnv> make(const nlohmann::json& config = nlohmann::json::object()) {
  static const DataStore data;
  return std::make_unique<InlineEnv>(config, data);
}

double play(InlineEnv& env, int action, double* first_score = nullptr) {
  env.reset(0);
  double total = 0;
  for (bool done = false; !done;) {
    const StepResult r = env.step(std::vector<double>{static_cast<double>(action)});
    total += r.reward;
    done = r.terminated;
  }
  if (first_score != nullptr) *first_score = total;
  return env.episode_summary()["score"].get<double>();
}

TEST(InlineEnv, WalksEverySiteOnceCalleesFirst) {
  auto env = make();
  env->reset(0);
  const Program& p = env->program();
  ASSERT_EQ(p.name, "kernels");
  std::map<std::size_t, std::size_t> decided_in;  // function -> sites decided in it so far
  std::size_t steps = 0;
  for (bool done = false; !done; ++steps) {
    const CallSite& s = env->current_site();
    // A callee's own sites come before this one, unless it calls back into the caller's cycle.
    if (s.callee != s.caller) {
      std::size_t callee_sites = 0;
      for (const CallSite& other : p.sites)
        callee_sites += other.caller == s.callee ? 1 : 0;
      if (callee_sites > 0 && decided_in[s.callee] == 0) {
        bool cycle = false;
        for (const CallSite& other : p.sites)
          cycle = cycle || (other.caller == s.callee && other.callee == s.caller);
        EXPECT_TRUE(cycle) << s.id;
      }
    }
    ++decided_in[s.caller];
    for (float x : env->observation()) {
      EXPECT_GE(x, -1.0f);
      EXPECT_LE(x, 1.0f);
    }
    done = env->step(std::vector<double>{0}).terminated;
  }
  EXPECT_EQ(steps, p.sites.size());
  EXPECT_THROW(env->current_site(), ApiMisuseError);
}

TEST(InlineEnv, ScoresAreRelativeToTheBaselineDecisions) {
  auto env = make({{"objective", "instructions"}});  // baseline: clang's -O2 decisions
  Registry envs;
  PolicyRegistry policies;
  register_builtins(envs, policies, std::make_shared<DataStore>());
  auto o2 = policies.make("clang-O2", "inline-v0");
  const EpisodeRecord r = run_episode(*env, *o2, "clang-O2", 0, false);
  EXPECT_NEAR(r.summary["score"].get<double>(), 0, 1e-12);
  EXPECT_NEAR(r.summary["instructions_vs_O2"].get<double>(), 1, 1e-12);
  // Inlining nothing runs more instructions than clang's -O2 choice: a negative score.
  EXPECT_LT(play(*env, 0), 0);
  EXPECT_GT(play(*env, 1), play(*env, 0));
}

TEST(InlineEnv, DenseRewardsAddUpToTheChangeOfTheScore) {
  auto dense = make({{"reward", "dense"}});
  auto final_only = make();
  double dense_sum = 0, final_sum = 0;
  const double end = play(*dense, 1, &dense_sum);
  play(*final_only, 1, &final_sum);
  EXPECT_NEAR(final_sum, end, 1e-12);
  // Dense starts from the score of nothing inlined.
  auto never = make({{"reward", "dense"}});
  double never_sum = 0;
  const double never_score = play(*never, 0, &never_sum);
  EXPECT_NEAR(never_sum, 0, 1e-12);
  EXPECT_NEAR(dense_sum, end - never_score, 1e-9);
}

TEST(InlineEnv, BadConfigsAreNamed) {
  const auto message = [](const nlohmann::json& config) {
    try {
      make(config);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({{"program", "sqlit"}}).find("unknown program 'sqlit'"), std::string::npos);
  EXPECT_NE(message({{"objective", "speed"}}).find("'objective'"), std::string::npos);
  EXPECT_NE(message({{"size_weight", 2}}).find("'size_weight'"), std::string::npos);
  EXPECT_NE(message({{"cost_model", {{"alhpa", 1}}}}).find("alhpa"), std::string::npos);
  EXPECT_NE(message({{"programme", "lz4"}}).find("programme"), std::string::npos);
  // A program the manifest lists but whose file was not extracted on this machine.
  DataStore data;
  data.add("inline/manifest.json", std::make_shared<const std::string>(
                                       R"({"programs": [{"name": "sqlite", "split": "train"}]})"));
  try {
    InlineEnv({{"program", "train"}}, data);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("regenerate.mjs sqlite"), std::string::npos) << e.what();
  }
  // Without the shipped data (a binary copied away from it) the message says so.
  try {
    InlineEnv({{"program", "lz4"}}, DataStore());
    FAIL();
  } catch (const UnknownNameError& e) {
    EXPECT_NE(std::string(e.what()).find("no shipped programs were found"), std::string::npos)
        << e.what();
  }
  auto env = make();
  env->reset(0);
  EXPECT_THROW(env->step(std::vector<double>{2}), InvalidActionError);
  EXPECT_THROW(env->reset(0, {{"start", 1}}), ConfigError);
}

// A program file replaced under its name (dropped again in the browser) is read anew, even while
// an env made on the old one lives (the parse cache is per name and content).
TEST(InlineEnv, AProgramReplacedUnderItsNameIsReadAnew) {
  nlohmann::json program = nlohmann::json::parse(embedded_kernels_program());
  DataStore data;
  data.add("mine.json", std::make_shared<const std::string>(program.dump()));
  const InlineEnv first({{"program", "mine.json"}}, data);
  EXPECT_EQ(first.program().name, "kernels");
  program["name"] = "kernels-v2";
  data.add("mine.json", std::make_shared<const std::string>(program.dump()));
  const InlineEnv second({{"program", "mine.json"}}, data);
  EXPECT_EQ(second.program().name, "kernels-v2");
  EXPECT_EQ(first.program().name, "kernels");
}

}  // namespace
}  // namespace sysgym::inlining
