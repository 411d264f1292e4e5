#include "memtier/placement_schedule.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <limits>

#include "base/error.hpp"
#include "env/episode.hpp"
#include "memtier/policy.hpp"

namespace sysgym::memtier {
namespace {

constexpr double kScheduleTicksPerMs = 1000.0;
constexpr std::uint64_t kSchedulePage = 8192;

// A small random pair: `pages` pages, `windows` windows; each window samples a random subset of
// the pages, and HBM is faster in most windows but slower in some.
PreparedPair random_schedule_pair(Rng& rng, std::size_t pages, std::size_t windows) {
  PreparedPair p;
  p.options.page_size_bits = 13;
  p.ticks_per_ms = kScheduleTicksPerMs;
  std::vector<std::uint64_t> page_table;
  for (std::size_t i = 0; i < pages; ++i)
    page_table.push_back(0x100000 + kSchedulePage * i);
  std::vector<std::uint32_t> ids;
  std::vector<std::uint32_t> prefix{0};
  p.entry_offset.push_back(0);
  for (std::size_t w = 0; w < windows; ++w) {
    const std::uint64_t ddr = 500 + rng.below(2000);
    p.ddr_ticks.push_back(ddr);
    p.hbm_ticks.push_back(rng.chance(1, 5) ? ddr + rng.below(300) : ddr - rng.below(ddr));
    p.phase.push_back(0);
    p.flags.push_back(0);
    for (std::uint32_t page = 0; page < pages; ++page) {
      if (!rng.chance(1, 2)) continue;
      ids.push_back(page);
      prefix.push_back(prefix.back() + 1 + static_cast<std::uint32_t>(rng.below(9)));
    }
    p.entry_offset.push_back(ids.size());
  }
  p.ddr_samples = p.hbm_samples = prefix.back();
  p.pages = Column<std::uint64_t>(page_table);
  p.entry_page = Column<std::uint32_t>(ids);
  p.count_prefix = Column<std::uint32_t>(prefix);
  p.finalize("random pair");
  return p;
}

// Time of window w with the page set `held` (a bit mask) in HBM, as the estimator counts it.
double brute_window_ms(const PreparedPair& p, std::size_t w, unsigned held) {
  const std::uint64_t n = p.window_samples(w);
  std::uint64_t in = 0;
  for (std::uint64_t e = p.entry_offset[w]; e < p.entry_offset[w + 1]; ++e) {
    if ((held >> p.entry_page[e]) & 1U) in += p.entry_count(e);
  }
  const double ddr = static_cast<double>(p.ddr_ticks[w]);
  const double hbm = static_cast<double>(p.hbm_ticks[w]);
  if (n == 0 || in == 0) return ddr / kScheduleTicksPerMs;
  return (ddr - (ddr - hbm) * (static_cast<double>(in) / static_cast<double>(n))) /
         kScheduleTicksPerMs;
}

// The optimum by trying every sequence of page sets: dynamic programming over the sets that
// fit, one stage per window, the first placement free when `free_first`.
double brute_force(const PreparedPair& p, const ScheduleProblem& q) {
  const unsigned sets = 1U << p.pages.size();
  constexpr double kNone = std::numeric_limits<double>::infinity();
  std::vector<double> best(sets, kNone);
  best[0] = 0;  // HBM starts empty
  for (std::size_t w = q.begin; w < q.end; ++w) {
    std::vector<double> next(sets, kNone);
    for (unsigned to = 0; to < sets; ++to) {
      if (static_cast<std::size_t>(std::popcount(to)) > q.slots) continue;
      for (unsigned from = 0; from < sets; ++from) {
        if (best[from] == kNone) continue;
        const bool free = w == q.begin && q.free_first;
        const double move = free ? 0.0 : std::popcount(from ^ to) * q.move_ms;
        next[to] = std::min(next[to], best[from] + move + brute_window_ms(p, w, to));
      }
    }
    best = next;
  }
  return *std::min_element(best.begin(), best.end());
}

// How many pages the schedule holds at most in one window.
std::size_t most_held(const PlacementSchedule& s, std::size_t windows) {
  std::vector<std::size_t> held(windows, 0);
  for (const Hold& h : s.holds) {
    for (std::uint32_t w = h.first; w <= h.last; ++w)
      ++held[w];
  }
  return *std::max_element(held.begin(), held.end());
}

// The dynamic oracle is exact: on hundreds of random small instances (pages, windows, capacity,
// migration cost, episode range and the free first placement all drawn) its schedule never holds
// more than fits, its solver total equals the brute-force optimum, and the env playing it as the
// `dynamic-oracle` policy reports that same total time.
TEST(PlacementSchedule, MatchesTheBruteForceOptimumOnRandomSmallInstances) {
  PolicyRegistry policies;
  register_memtier_policies(policies);
  Rng rng(2026);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t pages = 2 + rng.below(4);
    const std::size_t windows = 2 + rng.below(5);
    auto pair = std::make_shared<PreparedPair>(random_schedule_pair(rng, pages, windows));
    ScheduleProblem q;
    q.slots = 1 + rng.below(pages);
    q.begin = rng.below(windows);
    q.end = q.begin + 1 + rng.below(windows - q.begin);
    q.move_ms = std::array<double, 4>{0.0, 0.05, 0.4, 5.0}[rng.below(4)];
    q.free_first = rng.chance(1, 2);
    const double optimum = brute_force(*pair, q);
    const PlacementSchedule s = optimal_schedule(*pair, q);
    const std::string what = "trial " + std::to_string(trial);
    EXPECT_LE(most_held(s, windows), q.slots) << what;
    EXPECT_NEAR(s.total_ms, optimum, 1e-9 * optimum) << what;

    InMemoryPairSource source;
    source.add("random", pair);
    MemtierEnv env({{"trace", "random"},
                    {"bins", 1},
                    {"hbm_capacity", q.slots * kSchedulePage},
                    {"episode_start", q.begin},
                    {"episode_length", q.end - q.begin},
                    {"migration_ms_per_page", q.move_ms},
                    {"free_initial_placement", q.free_first}},
                   source);
    auto oracle = policies.make("dynamic-oracle", kMemtierId);
    const EpisodeRecord played = run_episode(env, *oracle, "dynamic-oracle", 0, false);
    EXPECT_NEAR(played.summary.at("total_ms").get<double>(), optimum, 1e-9 * optimum) << what;
  }
}

TEST(PlacementSchedule, RefusesAnEmptyOrOutOfRangeEpisode) {
  Rng rng(1);
  const PreparedPair pair = random_schedule_pair(rng, 3, 4);
  ScheduleProblem q;
  q.slots = 1;
  q.begin = 2;
  q.end = 2;
  EXPECT_THROW(optimal_schedule(pair, q), ConfigError);
  q.end = 5;
  EXPECT_THROW(optimal_schedule(pair, q), ConfigError);
}

}  // namespace
}  // namespace sysgym::memtier
