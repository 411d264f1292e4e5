#include "memtier/memtier_env.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <set>

#include "base/error.hpp"
#include "memtier/estimator.hpp"
#include "support/errors.hpp"
#include "support/small_source.hpp"

namespace sysgym::memtier {
namespace {

using sysgym::testing::message_of;

nlohmann::json base_config(nlohmann::json extra = nlohmann::json::object()) {
  nlohmann::json c = {{"trace", "synth:phased:20000:3"}, {"bins", 16}};
  c.update(extra);
  return c;
}

std::vector<double> all(std::size_t n, double v) {
  return std::vector<double>(n, v);
}

// Plays an episode with the same action every step; returns the summary.
EpisodeSummary play_constant(MemtierEnv& env, double value, std::uint64_t seed = 0) {
  env.reset(seed);
  const std::vector<double> action = all(env.action_space().flat_size(), value);
  for (;;) {
    const StepResult r = env.step(action);
    if (r.terminated || r.truncated) break;
  }
  return env.summary();
}

TEST(MemtierEnv, IsMadeFromTheRegistryByName) {
  Registry registry;
  register_memtier(registry, sysgym::testing::synth_source());
  const auto env = registry.make("memtier", base_config());
  EXPECT_EQ(env->id(), "memtier-v0");
  EXPECT_EQ(env->action_space().to_string(), "MultiBinary(16)");
  EXPECT_EQ(env->config()["window_mode"], "aligned");
  EXPECT_EQ(env->config()["bins"], 16);
}

TEST(MemtierEnv, ObservationLayoutNamesEveryElement) {
  MemtierEnv env(base_config({{"history", 3}}), *sysgym::testing::synth_source());
  const auto names = env.observation_layout();
  ASSERT_EQ(names.size(), env.observation_space().flat_size());
  EXPECT_EQ(names.size(), 16u * 5 + 5);
  EXPECT_EQ(names[0], "hist[0]");
  EXPECT_EQ(names[16], "resident[0]");
  EXPECT_EQ(names[32], "hist_prev_1[0]");
  EXPECT_EQ(names.back(), "capacity_share");
}

TEST(MemtierEnv, AllDdrGivesExactlyTheDdrTimeAndGapZero) {
  MemtierEnv env(base_config(), *sysgym::testing::synth_source());
  const EpisodeSummary s = play_constant(env, 0.0);
  EXPECT_EQ(s.estimated_ms, s.ddr_ms);
  EXPECT_EQ(s.estimated_ms, env.pair().ddr_ms());
  EXPECT_EQ(s.gap_closed, 0.0);
  EXPECT_EQ(s.migration_ms, 0.0);
  EXPECT_EQ(s.windows, env.pair().window_count());
}

TEST(MemtierEnv, AllHbmWithRoomForEverythingGivesExactlyTheHbmTimeAndGapOne) {
  MemtierEnv env(base_config({{"hbm_capacity", "100%"}}), *sysgym::testing::synth_source());
  const EpisodeSummary s = play_constant(env, 1.0);
  EXPECT_EQ(s.estimated_ms, s.hbm_ms);
  EXPECT_EQ(s.estimated_ms, env.pair().hbm_ms());
  EXPECT_EQ(s.gap_closed, 1.0);
  EXPECT_EQ(s.bytes_moved(), env.bins().footprint_bytes());  // the free initial placement
  EXPECT_EQ(s.migration_ms, 0.0);
}

TEST(MemtierEnv, CapacityIsNeverExceeded) {
  MemtierEnv env(
      base_config({{"hbm_capacity", "10%"}, {"random_start", true}, {"episode_length", 50}}),
      *sysgym::testing::synth_source());
  Rng rng(1);
  for (std::uint64_t episode = 0; episode < 5; ++episode) {
    env.reset(episode);
    for (;;) {
      const StepResult r = env.step(env.action_space().sample(rng));
      ASSERT_LE(r.info.at("hbm_used_bytes"), static_cast<double>(env.capacity_bytes()));
      ASSERT_LE(env.memory().used_bytes(), env.capacity_bytes());
      if (r.terminated || r.truncated) break;
    }
    EXPECT_GT(env.summary().refused_bytes, 0u);  // random requests overflow 10 %
  }
}

TEST(MemtierEnv, ACapacityRangeDrawsWholePagesPerEpisodeAndTheObservationShowsIt) {
  MemtierEnv env(base_config({{"hbm_capacity", nlohmann::json::array({"5%", "30%"})}}),
                 *sysgym::testing::synth_source());
  const auto range = env.facts().at("hbm_capacity_range_bytes");
  const std::uint64_t low = range[0], high = range[1];
  const std::uint64_t footprint = env.facts().at("footprint_bytes");
  EXPECT_LT(low, high);
  std::set<std::uint64_t> seen;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    env.reset(seed);
    const std::uint64_t capacity = env.capacity_bytes();
    EXPECT_GE(capacity, low);
    EXPECT_LE(capacity, high);
    EXPECT_EQ(capacity % env.pair().page_bytes(), 0u);
    EXPECT_FLOAT_EQ(env.observation().back(), static_cast<float>(static_cast<double>(capacity) /
                                                                 static_cast<double>(footprint)));
    // Requests never exceed the episode's capacity, whatever it is.
    env.step(all(env.action_space().flat_size(), 1.0));
    EXPECT_LE(env.memory().used_bytes(), capacity);
    seen.insert(capacity);
  }
  EXPECT_GT(seen.size(), 10u);
  env.reset(3);
  const std::uint64_t again = env.capacity_bytes();
  env.reset(4);
  env.reset(3);
  EXPECT_EQ(env.capacity_bytes(), again);  // the seed decides
}

TEST(MemtierEnv, DifferentWindowsGiveDifferentObservations) {
  MemtierEnv env(base_config(), *sysgym::testing::synth_source());
  env.reset(0);
  const std::vector<double> none = all(16, 0.0);
  const auto first_view = env.step(none).observation;
  const std::vector<float> first(first_view.begin(), first_view.end());
  for (int i = 0; i < 300; ++i)
    env.step(none);
  const auto later_view = env.step(none).observation;
  const std::vector<float> later(later_view.begin(), later_view.end());
  EXPECT_NE(first, later);
  // Histogram values are normalised, never all zero for a window with samples.
  float histogram_sum = 0;
  for (std::size_t i = 0; i < 16; ++i)
    histogram_sum += later[i];
  EXPECT_GT(histogram_sum, 0.0f);
  EXPECT_TRUE(env.observation_space().contains(std::vector<double>(later.begin(), later.end())));
}

TEST(MemtierEnv, SameSeedSameEpisodeDifferentSeedDifferentStart) {
  auto rewards = [](std::uint64_t seed) {
    MemtierEnv env(
        base_config({{"random_start", true}, {"episode_length", 20}, {"hbm_capacity", "5%"}}),
        *sysgym::testing::synth_source());
    Rng rng(seed);
    env.reset(seed);
    std::vector<double> out;
    for (;;) {
      const StepResult r = env.step(env.action_space().sample(rng));
      out.push_back(r.reward);
      if (r.terminated || r.truncated) break;
    }
    return out;
  };
  EXPECT_EQ(rewards(4), rewards(4));
  EXPECT_NE(rewards(4), rewards(5));
}

TEST(MemtierEnv, AStaticPlacementCostsWhatTheEstimatorSays) {
  MemtierEnv env(base_config({{"hbm_capacity", "100%"}}), *sysgym::testing::synth_source());
  const HbmRanges hot({{0x7f3a00000000, 0x7f3a01000000}});
  env.reset(0);
  for (;;) {
    const StepResult r = env.step_placement(hot.ranges());
    if (r.terminated || r.truncated) break;
  }
  EXPECT_EQ(env.summary().estimated_ms, Estimator(env.pair()).estimate(hot).estimated_ms);
  EXPECT_EQ(env.summary().migration_ms, 0.0);
}

TEST(MemtierEnv, MigrationCostsBytesOverBandwidth) {
  MemtierEnv env(base_config({{"hbm_capacity", "100%"}, {"migration_gbps", 2.0}}),
                 *sysgym::testing::synth_source());
  env.reset(0);
  env.step(all(16, 0.0));  // the first placement is free
  std::vector<double> one = all(16, 0.0);
  one[3] = 1.0;
  const StepResult r = env.step(one);
  const double bytes = static_cast<double>(env.bins().bin(3).bytes);
  EXPECT_EQ(r.info.at("promoted_bytes"), bytes);
  EXPECT_DOUBLE_EQ(r.info.at("migration_ms"), bytes / 2e6);
  EXPECT_DOUBLE_EQ(
      r.reward * (env.pair().ddr_ms() / static_cast<double>(env.pair().window_count())),
      -(r.info.at("window_ms") + r.info.at("migration_ms")));
}

TEST(MemtierEnv, DiscreteActionsMoveOneBinAndCountRedundantRequests) {
  MemtierEnv env(base_config({{"action_mode", "discrete"}, {"hbm_capacity", "100%"}}),
                 *sysgym::testing::synth_source());
  EXPECT_EQ(env.action_space().to_string(), "Discrete(33)");
  env.reset(0);
  EXPECT_EQ(env.step(std::vector<double>{1}).info.at("hbm_used_bytes"),
            static_cast<double>(env.bins().bin(0).bytes));
  EXPECT_EQ(env.step(std::vector<double>{1}).info.at("redundant_requests"), 1.0);  // already in
  EXPECT_EQ(env.step(std::vector<double>{17}).info.at("demoted_bytes"),
            static_cast<double>(env.bins().bin(0).bytes));
  EXPECT_EQ(env.step(std::vector<double>{17}).info.at("redundant_requests"), 1.0);  // already out
  EXPECT_EQ(env.summary().redundant_requests, 2u);
}

TEST(MemtierEnv, OverCapacityBinsAreAdmittedHottestFirst) {
  MemtierEnv env(base_config({{"hbm_capacity", "7%"}}), *sysgym::testing::synth_source());
  env.reset(0);
  env.step(all(16, 0.0));
  const StepResult r = env.step(all(16, 1.0));
  EXPECT_EQ(r.info.at("hbm_used_bytes"), static_cast<double>(env.capacity_bytes()));
  EXPECT_GT(r.info.at("refused_bytes"), 0.0);
  // The hottest bin of the last window is the one admitted first.
  const RenderFrame f = env.render_frame();
  std::size_t hottest = 0;
  for (std::size_t i = 1; i < 16; ++i)
    hottest = f.histogram[i] > f.histogram[hottest] ? i : hottest;
  EXPECT_GT(f.resident_fraction[hottest], 0.0f);
}

// Bins of one or two pages (170 bins over a 1 MiB footprint): far more bins fit than the
// capacity over the largest bin, and every one of them must still be chosen by heat.
TEST(MemtierEnv, SmallBinsAreAdmittedHottestFirstUntilTheCapacityIsUsed) {
  MemtierEnv env({{"trace", "synth:random:5000:1:1"}, {"bins", 170}, {"hbm_capacity", "30%"}},
                 *sysgym::testing::synth_source());
  const std::size_t bins = env.bins().size();
  env.reset(0);
  for (int w = 0; w < 5; ++w) {
    env.step(all(bins, 0.0));
    const std::vector<std::uint32_t> heat(env.render_frame().histogram.begin(),
                                          env.render_frame().histogram.end());
    std::vector<std::size_t> order(bins);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return heat[a] > heat[b]; });
    std::vector<double> expected(bins, 0.0);
    std::uint64_t free = env.capacity_bytes();
    for (const std::size_t i : order) {
      const std::uint64_t take = std::min(free, env.bins().bin(i).bytes);
      expected[i] = static_cast<double>(take) / static_cast<double>(env.bins().bin(i).bytes);
      free -= take;
    }
    env.step(all(bins, 1.0));
    const RenderFrame f = env.render_frame();
    for (std::size_t i = 0; i < bins; ++i)
      ASSERT_FLOAT_EQ(f.resident_fraction[i], static_cast<float>(expected[i])) << "bin " << i;
  }
}

TEST(MemtierEnv, InvalidActionsAreErrorsThatNameThem) {
  MemtierEnv env(base_config({{"bins", 4}}), *sysgym::testing::synth_source());
  env.reset(0);
  EXPECT_EQ(
      message_of<InvalidActionError>([&] {
        env.step(std::vector<double>{0, 1, 2, 0});
      }),
      "memtier-v0 action [0, 1, 2, 0] is not in MultiBinary(4): element 2 is 2, expected 0 or 1");
}

TEST(MemtierEnv, BadConfigsNameTheKey) {
  auto error = [](nlohmann::json config) {
    return message_of<Error>([&] { MemtierEnv env(config, *sysgym::testing::synth_source()); });
  };
  EXPECT_EQ(
      error(base_config({{"hbm_capcity", "1MiB"}})),
      "memtier-v0 config: unknown key 'hbm_capcity' (did you mean 'hbm_capacity'?); valid: "
      "action_mode, "
      "admission, bins, cpu_cycles_per_ms, episode_length, episode_start, free_initial_placement, "
      "hbm_capacity, history, interval_distance, migration_gbps, migration_ms_per_page, page_size, "
      "random_start, reward, reward_scale, trace, unit, window_len, window_mode");
  EXPECT_EQ(error(base_config({{"hbm_capacity", 4096}})),
            "memtier-v0 config: 'hbm_capacity' 4096 holds less than one page (8192 bytes); HBM "
            "must hold at least "
            "one page");
  const auto starts = [](const std::string& text, const std::string& prefix) {
    return text.substr(0, prefix.size()) == prefix ? ::testing::AssertionSuccess()
                                                   : ::testing::AssertionFailure() << text;
  };
  EXPECT_TRUE(starts(error(base_config({{"hbm_capacity", nlohmann::json::array({"30%", "5%"})}})),
                     "memtier-v0 config: 'hbm_capacity' range [\"30%\",\"5%\"] has its low end"));
  EXPECT_TRUE(starts(error(base_config({{"hbm_capacity", nlohmann::json::array({"5%"})}})),
                     "memtier-v0 config: 'hbm_capacity' must be bytes (a number), a size such as "
                     "\"64MiB\", a percentage such as \"25%\", or a range [low, high]"));
  EXPECT_EQ(error(base_config({{"bins", 60000}})).substr(0, 50),
            "memtier-v0 config: 'bins' is 60000 but the trace's");
  EXPECT_EQ(error(nlohmann::json{{"bins", 4}}),
            "memtier-v0 config: 'trace' is required: the trace pair to replay (a name such as "
            "lammps, PREFIX, DDR,HBM, PAIR.bin or synth:PATTERN)");
  EXPECT_EQ(error(base_config({{"migration_gbps", 1.0}, {"migration_ms_per_page", 0.01}})),
            "memtier-v0 config: 'migration_ms_per_page' and 'migration_gbps' both set the "
            "migration cost; give one");
  EXPECT_EQ(
      error(base_config({{"trace", "nothing"}})),
      "unknown trace 'nothing'; also DDR,HBM, a preprocessed PAIR.bin or "
      "synth:PATTERN[:SAMPLES[:SEED[:FOOTPRINT_MIB]]]");  // a synthetic pair used is not added
  EXPECT_EQ(error(base_config({{"episode_start", 1000000}})).substr(0, 52),
            "memtier-v0 config: 'episode_start' is 1000000 but th");
}

}  // namespace
}  // namespace sysgym::memtier
