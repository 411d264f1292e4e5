// Searches over action sequences from a schedule, ranked by GFLOPS (the env's: the cost model
// or measured), each under a budget of evaluations (deterministic) and optionally of time:
//
//   beam BFS, width w   level by level to `depth` actions: every legal action of each kept
//                       schedule, the w fastest distinct schedules kept for the next level
//   beam DFS, width w   depth first: from each schedule, the w fastest children in turn
//   rollouts            random sequences of `depth` legal actions, the best prefix kept
//   anneal              simulated annealing over sequences of `depth` actions: one position
//                       replaced at a time (illegal actions skipped when replayed), a worse
//                       sequence accepted with probability exp(-loss / temperature) on log GFLOPS
//
// LoopTune's own beam search ranks by action name; these rank by GFLOPS. Every search returns
// the shortest prefix of its best sequence that reaches its best schedule.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "base/rng.hpp"
#include "looptune/actions.hpp"

namespace sysgym::looptune {

enum class SearchKind { kBeamBfs, kBeamDfs, kRollouts, kAnneal };

struct SearchBudget {
  std::int64_t evaluations = 2000;  // distinct schedules whose GFLOPS are asked for
  double seconds = 0;               // 0: no time limit (deterministic)
};

struct SearchResult {
  std::vector<Action> actions;  // from the start to the best schedule
  double gflops = 0;            // the best schedule's
  std::int64_t evaluations = 0;
  bool budget_exhausted = false;
};

using Successor = std::function<std::optional<Schedule>(const Schedule&, Action)>;
using Evaluate = std::function<double(const LoopNest&)>;

SearchResult run_search(SearchKind kind, int width, const Schedule& start, int depth,
                        const Successor& next, const Evaluate& evaluate, const SearchBudget& budget,
                        Rng& rng);

}  // namespace sysgym::looptune
