#include "memtier/policy.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "env/episode.hpp"
#include "memtier/estimator.hpp"
#include "support/errors.hpp"
#include "support/memtier_policies.hpp"
#include "support/small_source.hpp"

namespace sysgym::memtier {
namespace {

using sysgym::testing::message_of;

const PolicyRegistry& policies() {
  return testing::memtier_policies();
}

nlohmann::json config(const std::string& capacity,
                      const std::string& trace = "synth:phased:20000:5:64") {
  return {{"trace", trace}, {"bins", 32}, {"hbm_capacity", capacity}};
}

EpisodeRecord run(const std::string& policy, const nlohmann::json& env_config,
                  std::uint64_t seed = 0, bool record = false) {
  MemtierEnv env(env_config, *testing::synth_source());
  auto p = policies().make(policy, kMemtierId);
  return run_episode(env, *p, policy, seed, record);
}

TEST(Policies, EveryBuiltinIsRegistered) {
  EXPECT_EQ(
      policies().names(kMemtierId),
      (std::vector<std::string>{"all-ddr", "all-hbm-first-touch", "all-hbm-lowest-address",
                                "autonuma", "constant", "dynamic-oracle", "lfu-hemem", "lookahead",
                                "lru", "memtis", "random", "static-oracle", "window-oracle"}));
  EXPECT_TRUE(policies().spec("static-oracle", kMemtierId).oracle);
  EXPECT_FALSE(policies().spec("lru", kMemtierId).oracle);
}

TEST(Policies, WindowOracleBoundsEveryPolicysMemoryTime) {
  for (const std::string trace :
       {"synth:phased:10000:5:32", "synth:random:10000:5:32", "synth:stencil:10000:5:32"}) {
    const nlohmann::json c = config("10%", trace);
    const double bound = run("window-oracle", c).summary["estimated_ms"].get<double>();
    for (const std::string& name : policies().standalone_names(kMemtierId)) {
      const nlohmann::json s = run(name, c).summary;
      EXPECT_LE(bound, s["estimated_ms"].get<double>() * (1 + 1e-12)) << name << " on " << trace;
    }
  }
}

TEST(Policies, StaticOracleBeatsEveryRandomStaticPlacement) {
  MemtierEnv env(config("10%"), *testing::synth_source());
  const double oracle = run("static-oracle", config("10%")).summary["estimated_ms"].get<double>();
  const PreparedPair& pair = env.pair();
  const std::size_t slots = page_slots(env);
  Rng rng(9);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<std::uint32_t> pages;
    for (std::size_t k = 0; k < slots; ++k)
      pages.push_back(static_cast<std::uint32_t>(rng.below(pair.pages.size())));
    std::vector<AddressRange> ranges;
    ranges_of_pages(env, pages, ranges);
    EXPECT_LE(oracle, Estimator(pair).estimate(HbmRanges(ranges)).estimated_ms * (1 + 1e-12));
  }
  EXPECT_LE(oracle,
            run("all-hbm-first-touch", config("10%")).summary["estimated_ms"].get<double>());
  EXPECT_LE(oracle,
            run("all-hbm-lowest-address", config("10%")).summary["estimated_ms"].get<double>());
}

TEST(Policies, AllDdrClosesNothingAndAllHbmWithRoomClosesEverything) {
  const nlohmann::json ddr = run("all-ddr", config("10%")).summary;
  EXPECT_EQ(ddr["gap_closed"], 0.0);
  EXPECT_EQ(ddr["estimated_ms"], ddr["ddr_ms"]);
  for (const std::string name : {"all-hbm-lowest-address", "all-hbm-first-touch"}) {
    const nlohmann::json all = run(name, config("100%")).summary;
    EXPECT_EQ(all["estimated_ms"], all["hbm_ms"]) << name;
    EXPECT_EQ(all["gap_closed"], 1.0) << name;
    EXPECT_EQ(all["migration_ms"], 0.0) << name;
  }
}

TEST(Policies, HeuristicsPlaceHotPagesOnAPhasedWorkload) {
  // Free migration isolates placement quality (at MemAI's 1.6 GB/s, churning heuristics can
  // lose to all-DDR, which `sysgym compare` shows); samples dense enough for HeMem's 8-sample
  // hot threshold.
  nlohmann::json c = config("10%", "synth:phased:60000:5:32");
  c["migration_ms_per_page"] = 0.0;
  for (const std::string name :
       {"lru", "lfu-hemem", "memtis", "autonuma", "dynamic-oracle", "static-oracle"}) {
    const nlohmann::json s = run(name, c).summary;
    EXPECT_GT(s["gap_closed"].get<double>(), 0.05) << name;
    EXPECT_LE(s["gap_closed"].get<double>(), 1.0) << name;
  }
}

TEST(Policies, EpisodesAreDeterministicBySeed) {
  const nlohmann::json c = config("5%");
  MemtierEnv a(c, *testing::synth_source());
  MemtierEnv b(c, *testing::synth_source());
  auto pa = policies().make("random", kMemtierId);
  auto pb = policies().make("random", kMemtierId);
  const nlohmann::json first = episode_to_json(run_episode(a, *pa, "random", 3, true), a);
  const nlohmann::json second = episode_to_json(run_episode(b, *pb, "random", 3, true), b);
  EXPECT_EQ(first.dump(), second.dump());
  EXPECT_NE(first.dump(), episode_to_json(run_episode(b, *pb, "random", 4, true), b).dump());
}

TEST(Policies, RecordedEpisodesReplayExactly) {
  for (const std::string name : {"random", "lru", "static-oracle"}) {
    MemtierEnv env(config("10%"), *testing::synth_source());
    auto p = policies().make(name, kMemtierId);
    const nlohmann::json recorded = episode_to_json(run_episode(env, *p, name, 1, true), env);
    EXPECT_EQ(recorded["schema_version"], 2);
    const nlohmann::json text =
        nlohmann::json::parse(recorded.dump());  // through text, as a file would
    MemtierEnv fresh(text["config"], *testing::synth_source());
    EXPECT_EQ(replay_episode(fresh, text), recorded["summary"]) << name;
  }
}

TEST(Policies, VersionOneRecordingsStillReplay) {
  // Version 1 (before the generic episode) kept the first window as a top-level "start".
  nlohmann::json c = config("10%");
  c["random_start"] = true;
  c["episode_length"] = 5;
  MemtierEnv env(c, *testing::synth_source());
  auto p = policies().make("lru", kMemtierId);
  nlohmann::json recorded = episode_to_json(run_episode(env, *p, "lru", 7, true), env);
  ASSERT_GT(recorded["reset_options"]["start"].get<int>(), 0);
  recorded["schema_version"] = 1;
  recorded["start"] = recorded["reset_options"]["start"];
  recorded.erase("reset_options");
  MemtierEnv fresh(recorded["config"], *testing::synth_source());
  EXPECT_EQ(replay_episode(fresh, recorded), recorded["summary"]);
}

TEST(Policies, ATamperedRecordingNamesTheFirstDifferingStep) {
  MemtierEnv env(config("10%"), *testing::synth_source());
  auto p = policies().make("lru", kMemtierId);
  nlohmann::json recorded = episode_to_json(run_episode(env, *p, "lru", 1, true), env);
  recorded["steps"][5]["reward"] = 1.0;
  const std::string message = message_of<ApiMisuseError>([&] { replay_episode(env, recorded); });
  EXPECT_EQ(message.rfind("recorded episode: step 5 replays with reward ", 0), 0u) << message;
  recorded["schema_version"] = 3;
  EXPECT_EQ(message_of<TraceFormatError>([&] { replay_episode(env, recorded); }),
            "recorded episode: schema_version 3 is not supported (this build reads 1 and 2)");
}

TEST(Policies, SteppingAnEpisodeShowsEveryWindowAndEndsWhereRunEpisodeEnds) {
  const EpisodeRecord whole = run("lfu-hemem", config("10%"), 2, true);
  MemtierEnv env(config("10%"), *testing::synth_source());
  auto p = policies().make("lfu-hemem", kMemtierId);
  PolicyEpisode episode(env, *p, "lfu-hemem", 2, true);
  std::size_t windows = 0;
  while (!episode.done()) {
    const StepResult r = episode.step();
    EXPECT_EQ(r.reward, whole.steps[windows].reward) << "window " << windows;
    const RenderFrame frame = env.render_frame();
    EXPECT_EQ(frame.window, whole.reset_options["start"].get<std::int64_t>() +
                                static_cast<std::int64_t>(windows));
    std::uint64_t in_bins = 0;
    for (std::uint32_t n : frame.histogram)
      in_bins += n;
    EXPECT_EQ(static_cast<double>(in_bins), r.info.at("samples"));
    ++windows;
  }
  EXPECT_EQ(windows, whole.steps.size());
  EXPECT_EQ(episode.record().summary, whole.summary);
  EXPECT_EQ(episode.record().observation_hash, whole.observation_hash);
  EXPECT_EQ(message_of<ApiMisuseError>([&] { episode.step(); }),
            "the episode is over: no step left to play");
}

TEST(Policies, AReplayStepsThroughTheRecordingWindowByWindow) {
  MemtierEnv env(config("10%"), *testing::synth_source());
  auto p = policies().make("memtis", kMemtierId);
  const nlohmann::json recorded = episode_to_json(run_episode(env, *p, "memtis", 1, true), env);
  MemtierEnv fresh(recorded["config"], *testing::synth_source());
  EpisodeReplay replay(fresh, recorded);
  ASSERT_EQ(replay.size(), recorded["steps"].size());
  for (std::size_t i = 0; !replay.done(); ++i)
    EXPECT_EQ(replay.step().reward, recorded["steps"][i]["reward"].get<double>());
  EXPECT_EQ(fresh.summary().to_json(), recorded["summary"]);
  nlohmann::json truncated = recorded;
  truncated["steps"].erase(truncated["steps"].begin() + 3, truncated["steps"].end());
  EpisodeReplay short_replay(fresh, truncated);
  short_replay.step();
  short_replay.step();
  EXPECT_EQ(message_of<TraceFormatError>([&] { short_replay.step(); }),
            "recorded episode: step 2 is the last recorded but the episode goes on");
}

TEST(Policies, UnknownNamesAndKeysAreNamed) {
  EXPECT_EQ(
      message_of<UnknownNameError>([] { policies().make("lfu", kMemtierId); }),
      "unknown policy 'lfu' (did you mean 'lfu-hemem'?); valid: all-ddr, all-hbm-first-touch, "
      "all-hbm-lowest-address, autonuma, constant, dynamic-oracle, lfu-hemem, lookahead, lru, "
      "memtis, "
      "random, "
      "static-oracle, window-oracle");
  EXPECT_EQ(
      message_of<ConfigError>([] {
        policies().make("lfu-hemem", kMemtierId, {{"hot_treshold", 4}});
      }),
      "lfu-hemem policy config: unknown key 'hot_treshold' (did you mean 'hot_threshold'?); valid: "
      "cool_threshold, hot_threshold, period_ms");
}

}  // namespace
}  // namespace sysgym::memtier
