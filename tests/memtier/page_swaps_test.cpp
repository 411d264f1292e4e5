#include "memtier/page_swaps.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "env/check_env.hpp"
#include "env/episode.hpp"
#include "memtier/memtier_env.hpp"
#include "memtier/policy.hpp"
#include "support/errors.hpp"
#include "support/memtier_policies.hpp"
#include "support/small_source.hpp"

namespace sysgym::memtier {
namespace {

const PolicyRegistry& swap_policies() {
  return testing::memtier_policies();
}

nlohmann::json swap_config(nlohmann::json extra = nlohmann::json::object()) {
  nlohmann::json c = {{"trace", "synth:phased:20000:5:64"},
                      {"action_mode", "swap"},
                      {"hbm_capacity", "10%"},
                      {"episode_length", 0}};
  c.update(extra);
  return c;
}

nlohmann::json play(const std::string& policy, const nlohmann::json& config,
                    const nlohmann::json& policy_config = nlohmann::json::object()) {
  MemtierEnv env(config, *testing::synth_source());
  auto p = swap_policies().make(policy, kMemtierId, policy_config);
  return run_episode(env, *p, policy, 0, false).summary;
}

TEST(PageSwaps, TheEnvKeepsTheContractInSwapMode) {
  Registry envs;
  register_memtier(envs, testing::synth_source());
  EnvCheckOptions options;
  options.config = swap_config({{"episode_length", 100}});
  EXPECT_GE(check_env(envs, swap_policies(), kMemtierId, options).size(), 7u);
  MemtierEnv env(swap_config(), *testing::synth_source());
  EXPECT_EQ(env.action_space().to_string(), "Discrete(14)");
  EXPECT_EQ(env.observation_layout().size(), env.observation_space().flat_size());
  EXPECT_FALSE(env.entity_layout().has_value());
}

// Action 0 every window keeps the episode's first placement, which is first-touch's.
TEST(PageSwaps, KeepingPlaysTheFirstTouchPlacement) {
  const nlohmann::json keep = play("constant", swap_config(), {{"action", 0}});
  const nlohmann::json first_touch = play("all-hbm-first-touch", swap_config());
  EXPECT_EQ(keep.at("total_ms"), first_touch.at("total_ms"));
  EXPECT_EQ(keep.at("bytes_moved"), first_touch.at("bytes_moved"));
}

// A swap must promise to pay for its moves: when a move costs more than the whole run could
// save, no cost-aware action moves a page after the free first placement; when moves are free,
// swapping moves pages, beats keeping, and never overfills HBM.
TEST(PageSwaps, AMoveHappensOnlyWhenItCanPayForItself) {
  const double initial = play("constant", swap_config(), {{"action", 0}}).at("bytes_moved");
  for (int action = 1; action < static_cast<int>(kHememAction); ++action) {
    const nlohmann::json dear =
        play("constant", swap_config({{"migration_ms_per_page", 1e6}}), {{"action", action}});
    EXPECT_EQ(dear.at("bytes_moved").get<double>(), initial) << action;
    const nlohmann::json free =
        play("constant", swap_config({{"migration_ms_per_page", 0}}), {{"action", action}});
    EXPECT_GT(free.at("bytes_moved").get<double>(), initial) << action;
    EXPECT_EQ(free.at("refused_bytes"), 0) << action;
  }
  const double keep =
      play("constant", swap_config({{"migration_ms_per_page", 0}}), {{"action", 0}}).at("total_ms");
  EXPECT_LT(play("constant", swap_config({{"migration_ms_per_page", 0}}), {{"action", 1}})
                .at("total_ms")
                .get<double>(),
            keep);
}

// Action 1 + (k L + l) M + m swaps under score memory k. The short memory (halved every 16
// windows) follows phases when moves are cheap; the long one (never halved) sees pages that are
// warm for longer than 16 windows, so it pays for moves that the short one can never justify.
TEST(PageSwaps, EachScoreMemoryServesItsKindOfHotSet) {
  const std::size_t per_memory = kSwapBudgets.size() * kSwapMargins.size();
  const std::size_t short_swap = 1;              // short memory, smallest budget, margin 1
  const std::size_t long_swap = 1 + per_memory;  // long memory, the same budget and margin
  const auto episode = [&](double move_ms, std::size_t action) {
    return play("constant", swap_config({{"migration_ms_per_page", move_ms}}),
                {{"action", action}});
  };
  EXPECT_GT(episode(0.001, short_swap).at("gap_closed").get<double>(),
            episode(0.001, long_swap).at("gap_closed").get<double>());
  const double initial = play("constant", swap_config(), {{"action", 0}}).at("bytes_moved");
  for (std::size_t a = 1; a <= per_memory; ++a)
    EXPECT_EQ(episode(0.03, a).at("bytes_moved").get<double>(), initial) << a;
  EXPECT_GT(episode(0.03, long_swap).at("bytes_moved").get<double>(), initial);
}

// HeMem's rule ignores what a move costs: it promotes hot pages even when moves are dear, into
// HBM that never overfills, and acts at most once per kHememPeriodMs of run time.
TEST(PageSwaps, TheHememActionActsOnItsPeriodWhateverAMoveCosts) {
  const double initial = play("constant", swap_config(), {{"action", 0}}).at("bytes_moved");
  const nlohmann::json dear =
      play("constant", swap_config({{"migration_ms_per_page", 1e6}}), {{"action", kHememAction}});
  EXPECT_GT(dear.at("bytes_moved").get<double>(), initial);
  EXPECT_EQ(dear.at("refused_bytes"), 0);

  const MemtierEnv env(swap_config(), *testing::synth_source());
  const PreparedPair& pair = env.pair();
  const std::size_t slots = pair.pages.size() / 10;
  PageSwaps swaps(pair);
  swaps.start(0, slots);
  swaps.context.saving_per_sample_ms = 1;
  swaps.context.move_ms = 1e6;
  std::vector<std::uint32_t> before;
  std::vector<std::uint32_t> after;
  double since_change_ms = 0;
  std::size_t changes = 0;
  bool first = true;
  for (std::size_t w = 0; w < pair.window_count(); ++w) {
    swaps.learn(w);
    since_change_ms += pair.window_ddr_ms(w);
    swaps.plan();
    before.clear();
    swaps.resident().for_each([&](std::uint32_t id) { before.push_back(id); });
    swaps.apply(kHememAction);
    after.clear();
    swaps.resident().for_each([&](std::uint32_t id) { after.push_back(id); });
    ASSERT_LE(after.size(), slots) << w;
    if (after == before) continue;
    EXPECT_TRUE(first || since_change_ms >= kHememPeriodMs) << w << ": " << since_change_ms;
    first = false;
    since_change_ms = 0;
    ++changes;
  }
  EXPECT_GT(changes, 1u);
}

// The saving reward counts each window's saving over all-DDR: its return is the all-DDR time
// minus the total time, in units of the mean window's DDR-HBM difference.
TEST(PageSwaps, TheSavingRewardSumsToTheGapClosed) {
  MemtierEnv env(swap_config({{"reward", "saving"}}), *testing::synth_source());
  auto p = swap_policies().make("constant", kMemtierId, {{"action", 1}});
  const EpisodeRecord r = run_episode(env, *p, "constant", 0, false);
  const double ddr = r.summary.at("ddr_ms");
  const double hbm = r.summary.at("hbm_ms");
  const double mean_gap = (ddr - hbm) / static_cast<double>(env.pair().window_count());
  EXPECT_NEAR(r.episode_return, (ddr - r.summary.at("total_ms").get<double>()) / mean_gap,
              1e-6 * r.episode_return);
}

TEST(PageSwaps, TheConstantPolicyNamesAMissingOrMalformedAction) {
  EXPECT_EQ(testing::message_of<ConfigError>([] { swap_policies().make("constant", kMemtierId); }),
            "constant policy config: 'action' is required");
  EXPECT_EQ(testing::message_of<ConfigError>([] {
              swap_policies().make("constant", kMemtierId, {{"action", "keep"}});
            }),
            "constant policy config: 'action' must be a number or a list of numbers, not \"keep\"");
}

}  // namespace
}  // namespace sysgym::memtier
