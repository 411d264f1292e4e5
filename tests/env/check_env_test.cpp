#include "env/check_env.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "builtins/builtins.hpp"
#include "env/episode.hpp"
#include "env/line_walk_env.hpp"
#include "support/errors.hpp"

namespace sysgym {
namespace {

using testing::message_of;

struct Catalog {
  Registry envs;
  PolicyRegistry policies;
};

// The built-in families and the test family, registered as a family is.
const Catalog& catalog() {
  static const Catalog c = [] {
    Catalog out;
    register_builtins(out.envs, out.policies, std::make_shared<DataStore>());
    testing::register_line_walk(out.envs, out.policies);
    return out;
  }();
  return c;
}

TEST(CheckEnv, EveryRegisteredEnvKeepsTheContract) {
  ASSERT_GE(catalog().envs.ids().size(), 3u);
  for (const std::string& id : catalog().envs.ids()) {
    const std::vector<std::string> passed = check_env(catalog().envs, catalog().policies, id);
    EXPECT_GE(passed.size(), 7u) << id;
  }
}

TEST(CheckEnv, FamilyPoliciesRunOnlyOnTheirFamily) {
  const PolicyRegistry& p = catalog().policies;
  EXPECT_EQ(p.names("linewalk-v0"), (std::vector<std::string>{"constant", "learned", "random", "walk-right"}));
  EXPECT_EQ(message_of<UnknownNameError>([&] {
              p.make("lru", "linewalk-v1");
            }).rfind("policy 'lru' runs on memtier envs, not on linewalk-v1; unknown policy", 0),
            0u);
  EXPECT_EQ(message_of<UnknownNameError>([&] {
              p.make("walk-right", "memtier-v0");
            }).rfind("policy 'walk-right' runs on linewalk envs", 0),
            0u);
}

TEST(CheckEnv, ARecordingRemakesTheEnvItNames) {
  const Catalog& c = catalog();
  auto env = c.envs.make("linewalk-v1", {{"length", 4}});
  auto policy = c.policies.make("walk-right", "linewalk-v1");
  nlohmann::json recorded =
      episode_to_json(run_episode(*env, *policy, "walk-right", 3, true), *env);
  auto remade = make_recorded_env(c.envs, recorded);
  EXPECT_EQ(remade->id(), "linewalk-v1");
  EXPECT_EQ(replay_episode(*remade, recorded), recorded["summary"]);
  recorded["env"] = "linewalk-v9";
  EXPECT_EQ(message_of<UnknownNameError>([&] {
              make_recorded_env(c.envs, recorded);
            }).rfind("unknown env 'linewalk-v9'", 0),
            0u);
  recorded.erase("env");
  EXPECT_EQ(message_of<TraceFormatError>([&] { make_recorded_env(c.envs, recorded); }),
            "recorded episode: no \"env\" id to make its env from");
  EXPECT_EQ(message_of<TraceFormatError>([&] { make_recorded_env(c.envs, nlohmann::json(7)); }),
            "recorded episode: not a sysgym episode (no \"kind\": \"sysgym-episode\")");
}

// Envs that break one promise each.
class Broken : public Env {
 public:
  enum class Flaw { kObservationOutOfSpace, kNotDeterministic, kNanReward, kFrameGrows };
  explicit Broken(Flaw flaw)
      : Env("broken-v0", Space::box({1}, 0.0f, 1.0f), Space::discrete(2), {}), flaw_(flaw) {}
  nlohmann::json config() const override { return nlohmann::json::object(); }
  Frame frame() const override {
    return {{"cells", std::span<const float>(cells_.data(), steps_ + 1)}};
  }

 protected:
  void on_reset(Rng&, const nlohmann::json&) override {
    observation_buffer()[0] = 0.0f;
    steps_ = 0;
  }
  StepOutcome on_step(std::span<const double>) override {
    static int calls = 0;
    ++calls;
    observation_buffer()[0] = flaw_ == Flaw::kObservationOutOfSpace ? 2.0f
                              : flaw_ == Flaw::kNotDeterministic
                                  ? static_cast<float>(calls % 7) / 7.0f
                                  : 0.5f;
    if (flaw_ == Flaw::kFrameGrows) ++steps_;
    StepOutcome out;
    out.reward = flaw_ == Flaw::kNanReward ? std::nan("") : 0.0;
    out.truncated = true;
    return out;
  }

 private:
  Flaw flaw_;
  std::vector<float> cells_ = std::vector<float>(4, 0.0f);
  std::size_t steps_ = 0;
};

std::string flaw_message(Broken::Flaw flaw) {
  Registry envs;
  envs.add({"broken-v0", "breaks a promise",
            [flaw](const nlohmann::json&) { return std::make_unique<Broken>(flaw); },
            nlohmann::json::object(), ConfigSchema()});
  const PolicyRegistry policies;
  return message_of<EnvCheckError>([&] { check_env(envs, policies, "broken"); });
}

TEST(CheckEnv, NamesTheBrokenPromise) {
  EXPECT_EQ(
      flaw_message(Broken::Flaw::kObservationOutOfSpace),
      "check_env(broken-v0): the observation after step 0 [2] is not in Box(0, 1, (1,), float32)");
  EXPECT_EQ(flaw_message(Broken::Flaw::kNotDeterministic),
            "check_env(broken-v0): two envs reset with seed 0 differ");
  EXPECT_EQ(flaw_message(Broken::Flaw::kNanReward),
            "check_env(broken-v0): the reward after step 0 is nan");
  EXPECT_EQ(flaw_message(Broken::Flaw::kFrameGrows),
            "check_env(broken-v0): the frame after step 0 is cells: float32[2], after reset it "
            "was cells: float32[1]");
}

TEST(CheckEnv, FramesKeepTheirLayoutAndAreNamedInTheReport) {
  const std::vector<std::string> passed =
      check_env(catalog().envs, catalog().policies, "memtier-v0");
  EXPECT_NE(std::find(passed.begin(), passed.end(),
                      "frame() keeps its layout (histogram: uint32[64], resident: float32[64]) "
                      "through the episode, values finite"),
            passed.end());
}

}  // namespace
}  // namespace sysgym
