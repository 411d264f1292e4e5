// memtier's "swap" action mode: page-granular leverage for learned policies, biased to keeping.
//
// The heuristics and oracles place single pages, while a bin action moves 1/64 of the footprint
// at once; learned policies lost to them mostly by migrating more than they saved. Here the env
// does the page-level bookkeeping and the agent chooses, each window, how boldly to act on it:
//   - every sampled page has two scores, its sample counts under two memories: a short one
//     halving all counts every 16 windows (a decayed LFU, as HeMem and Memtis keep), for
//     programs whose hot set moves, and a long one that never forgets (the counts since the
//     episode began), for programs whose hot set holds still;
//   - the episode starts from the first-touch placement (what an allocator filling HBM first
//     gives, free like every first placement);
//   - action 0 keeps the placement; action 1 + (k L + l) M + m (memory k, budget level l of L,
//     margin m of M) swaps up to budget(l) pages: under memory k's scores, the best-scored pages
//     in DDR replace the worst-scored resident ones (or fill free room) while the candidate's
//     score beats the resident's by what the two moves cost, in samples at the saving per
//     sample seen so far, times margin m (1 or 4): a keep-biased rule, as a swap must promise
//     to pay for itself;
//   - the last action is HeMem's rule on a third memory kept as HeMem keeps its counts (all
//     halved when a page reaches kHememCool samples): pages of at least kHememHot samples are
//     promoted, up to the largest budget, in place of resident pages that are not hot and
//     score less, whatever a move costs, at most once per kHememPeriodMs of run time. A fixed
//     threshold beat every cost-based rule at small capacities on programs the agents never saw
//     (minisat and xz at 5 %), so the agent may choose it when it pays.
// The observation is invariant to the trace's size: shares of samples and of capacity, and for
// every action what it would have gained on the last window and on the scores, and what it
// moves. Levels, margins and features are documented in observation_names().
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "memtier/page_sets.hpp"
#include "memtier/prepared_pair.hpp"

namespace sysgym::memtier {

// The score memories: every how many windows all counts are halved (0: never).
inline constexpr std::array<std::uint32_t, 2> kScoreHalvings = {16, 0};
// Swap budgets as shares of the capacity in pages (at least one page each).
inline constexpr std::array<double, 3> kSwapBudgets = {1.0 / 32, 1.0 / 8, 1.0 / 2};
// How many moves' worth of saving a page's score must promise (see plan()), ascending.
inline constexpr std::array<double, 2> kSwapMargins = {1.0, 4.0};
// HeMem's hot and cooling thresholds (lfu-hemem's defaults) for the last action.
inline constexpr std::uint32_t kHememHot = 8;
inline constexpr std::uint32_t kHememCool = 18;
inline constexpr double kHememPeriodMs = 10;
inline constexpr std::size_t kHememAction =
    1 + kScoreHalvings.size() * kSwapBudgets.size() * kSwapMargins.size();
inline constexpr std::size_t kSwapActions = kHememAction + 1;

// Scores, the resident set and the plans of every action for the next window.
class PageSwaps {
 public:
  explicit PageSwaps(const PreparedPair& pair);

  // A new episode from window `begin` with `slots` pages of HBM: scores cleared, the resident set
  // the first pages touched from `begin` on.
  void start(std::size_t begin, std::size_t slots);
  // Window w was played: its samples add to every memory's scores (then halved where due).
  void learn(std::size_t w);
  // Plans every action from the scores and the resident set (call after learn/start).
  void plan();
  // Applies action `a` (0 keeps) to the resident set.
  void apply(std::size_t a);

  const PageBits& resident() const { return resident_; }
  // The features of observation_names(), written to `out` (feature_count() values).
  void features(std::span<float> out) const;
  static std::size_t feature_count();
  static std::vector<std::string> observation_names();
  // Per-feature lower bounds of the observation Box (upper bounds are 1).
  static std::vector<float> feature_lows();

  // Context the features need from the env, set before features().
  struct Context {
    double last_speedup = 0;          // (t_ddr - t_hbm) / t_ddr of the last window
    double last_duration = 0;         // t_ddr / (2 x mean window t_ddr), clamped
    double saving_per_sample_ms = 0;  // of the windows played so far
    double move_ms = 0;               // one page's migration
    double mean_window_ms = 0;
    double capacity_share = 0;
    double progress = 0;
    double hit_share = 0;  // the last window's samples that were in HBM
  };
  Context context;

 private:
  struct Plan {
    std::size_t memory = 0;        // whose candidates and residents
    std::size_t promote = 0;       // the first `promote` candidates
    std::size_t demote = 0;        // the first `demote` residents
    std::int64_t window_gain = 0;  // last window's samples gained minus lost
    std::int64_t score_gain = 0;
  };
  // One memory's scores (halved every kScoreHalvings[k] windows) and, after plan(), its ranked
  // pages.
  struct Memory {
    std::vector<std::uint32_t> score;
    std::vector<std::uint32_t> candidates;  // in DDR with a score, best first
    std::vector<std::uint32_t> residents;   // in HBM, worst first
    // Last window's samples on the `slots` best-scored pages (not kept for HeMem's memory).
    std::uint64_t best_samples = 0;
    std::uint64_t score_total = 0;
  };

  // The memory HeMem's rule scores with, after the kScoreHalvings ones.
  static constexpr std::size_t kHememMemory = kScoreHalvings.size();

  void rank(Memory& m, double least);
  void halve(Memory& m) const;
  void count_best(Memory& m);
  // Promotes the best candidates of `memory`, up to `budget`, into free room while they score
  // above `floor`, then in place of the worst residents while they also beat them by `lead` and
  // the resident scores below `evict_below`.
  Plan plan_swaps(std::size_t memory, std::size_t budget, double floor, double lead,
                  double evict_below) const;

  const PreparedPair& pair_;
  std::size_t slots_ = 0;
  std::uint32_t played_ = 0;  // windows learned this episode
  std::array<Memory, kScoreHalvings.size() + 1> memories_;
  std::vector<std::uint32_t> last_count_;    // samples in the last learned window
  std::vector<std::uint32_t> last_pages_;    // pages of the last learned window
  std::vector<std::uint32_t> scored_;        // pages with a score ever, in first-scored order
  std::vector<std::uint32_t> ranked_;        // scratch of rank()
  std::vector<std::uint32_t> resident_ids_;  // resident_ in ascending order, for rank()
  std::vector<std::uint8_t> was_scored_;
  PageBits resident_;
  std::array<Plan, kSwapActions> plans_{};
  std::uint64_t last_samples_ = 0;
  double hemem_since_ms_ = 0;  // run time since HeMem's rule last acted
};

}  // namespace sysgym::memtier
