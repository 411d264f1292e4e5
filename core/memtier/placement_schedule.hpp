// The exact dynamic oracle: the schedule of HBM placements over an episode's windows that
// minimises estimated time plus migration time, for equal-size pages and a capacity in pages.
//
// Offline caching with fetch and eviction costs is a min-cost flow (interval scheduling on k
// machines): `slots` units of flow run through time; a unit either idles on the free chain or
// holds one page from the window it is promoted before to the window it is demoted after.
// Holding page p during window w earns (t_ddr - t_hbm) x n_pw / n_w (the estimator is linear in
// the samples in HBM), a promotion or a demotion costs one page's migration time, promotions
// into the first window are free when the env's first placement is, and a page may be kept to
// the episode's end without a demotion. A page is only promoted right before a window that
// samples it and demoted right after one, which loses nothing: idle windows earn nothing.
// Solved by LEMON's network simplex on integer costs (ms scaled so the episode's all-DDR time
// is 2^40 units, i.e. a rounding of at most one unit in 10^12 per arc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "memtier/prepared_pair.hpp"

namespace sysgym::memtier {

struct ScheduleProblem {
  std::size_t begin = 0;   // first window of the episode
  std::size_t end = 0;     // one past its last window
  std::size_t slots = 0;   // pages HBM holds
  double move_ms = 0;      // migration time of one page, promoted or demoted
  bool free_first = true;  // the placement before window `begin` costs nothing
};

// Page `page` (a pair page id) is in HBM during windows [first, last].
struct Hold {
  std::uint32_t page;
  std::uint32_t first;
  std::uint32_t last;
};

struct PlacementSchedule {
  std::vector<Hold> holds;  // by first window, then page
  // The schedule's estimated time and migration time as the solver counts them (ms).
  double total_ms = 0;
  std::size_t arcs = 0;  // the flow network's size, for reports
};

// Throws ConfigError when the window range is empty or out of the pair.
PlacementSchedule optimal_schedule(const PreparedPair& pair, const ScheduleProblem& problem);

}  // namespace sysgym::memtier
