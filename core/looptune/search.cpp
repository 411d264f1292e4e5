#include "looptune/search.hpp"

#include <algorithm>
#include <chrono>
#include <unordered_map>

#include "base/det_math.hpp"

namespace sysgym::looptune {
namespace {

struct Node {
  Schedule schedule;
  std::vector<Action> path;
  double gflops = 0;
};

// Fastest first; a stable sort keeps ties in action order.
bool faster(const Node& x, const Node& y) {
  return x.gflops > y.gflops;
}

// Evaluations memoised by nest, counted against the budget, and the best node so far.
class Searcher {
 public:
  Searcher(const Successor& next, const Evaluate& evaluate, const SearchBudget& budget)
      : next_(next),
        evaluate_(evaluate),
        budget_(budget),
        start_(std::chrono::steady_clock::now()) {}

  bool out_of_budget() {
    if (progress() >= 1) result_.budget_exhausted = true;
    return result_.budget_exhausted;
  }

  // The share of the budget spent (of evaluations or of time, whichever is further).
  double progress() const {
    double p = static_cast<double>(result_.evaluations) / static_cast<double>(budget_.evaluations);
    if (budget_.seconds > 0) {
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start_;
      p = std::max(p, took.count() / budget_.seconds);
    }
    return std::min(1.0, p);
  }

  // Whether the last call of this found nothing new for `patience` calls in a row: a space
  // smaller than the budget is exhausted.
  bool stale(std::int64_t patience) {
    stale_ = result_.evaluations == seen_ ? stale_ + 1 : 0;
    seen_ = result_.evaluations;
    return stale_ >= patience;
  }

  double gflops(const LoopNest& nest) {
    const auto [it, fresh] = memo_.try_emplace(nest.hash(), 0.0);
    if (fresh) {
      it->second = evaluate_(nest);
      ++result_.evaluations;
    }
    return it->second;
  }

  // Every legal child of `node`, evaluated (as far as the budget goes), fastest first.
  std::vector<Node> children(const Node& node) {
    std::vector<Node> out;
    for (int a = 0; a < kActionCount && !out_of_budget(); ++a) {
      std::optional<Schedule> s = next_(node.schedule, static_cast<Action>(a));
      if (!s) continue;
      Node child{std::move(*s), node.path, 0};
      child.path.push_back(static_cast<Action>(a));
      child.gflops = gflops(child.schedule.nest);
      consider(child);
      out.push_back(std::move(child));
    }
    std::stable_sort(out.begin(), out.end(), faster);
    return out;
  }

  void consider(const Node& n) {
    if (n.gflops > result_.gflops ||
        (n.gflops == result_.gflops && n.path.size() < result_.actions.size())) {
      result_.gflops = n.gflops;
      result_.actions = n.path;
    }
  }

  std::optional<Schedule> next(const Schedule& s, Action a) const { return next_(s, a); }
  SearchResult& result() { return result_; }

 private:
  const Successor& next_;
  const Evaluate& evaluate_;
  SearchBudget budget_;
  std::chrono::steady_clock::time_point start_;
  std::unordered_map<std::uint64_t, double> memo_;
  SearchResult result_;
  std::int64_t seen_ = 0;
  std::int64_t stale_ = 0;
};

// Schedules differ by nest and cursor: two paths to the same pair are one beam entry.
std::uint64_t state_key(const Schedule& s) {
  return s.nest.hash() * 31 + static_cast<std::uint64_t>(s.cursor);
}

void beam_bfs(Searcher& search, Node root, int width, int depth) {
  std::vector<Node> level = {std::move(root)};
  for (int d = 0; d < depth && !level.empty(); ++d) {
    std::vector<Node> candidates;
    for (const Node& n : level) {
      for (Node& c : search.children(n))
        candidates.push_back(std::move(c));
    }
    std::stable_sort(candidates.begin(), candidates.end(), faster);
    level.clear();
    std::vector<std::uint64_t> kept;
    for (Node& c : candidates) {
      if (static_cast<int>(level.size()) == width) break;
      const std::uint64_t key = state_key(c.schedule);
      if (std::find(kept.begin(), kept.end(), key) != kept.end()) continue;
      kept.push_back(key);
      level.push_back(std::move(c));
    }
  }
}

void beam_dfs(Searcher& search, const Node& node, int width, int depth) {
  if (depth == 0 || search.out_of_budget()) return;
  std::vector<Node> children = search.children(node);
  for (std::size_t i = 0; i < children.size() && static_cast<int>(i) < width; ++i)
    beam_dfs(search, children[i], width, depth - 1);
}

// Replays `actions` from `start`, skipping those that cannot apply; the best prefix considered.
double replay(Searcher& search, const Node& start, const std::vector<Action>& actions) {
  Node n = start;
  double best = n.gflops;
  for (Action a : actions) {
    if (search.out_of_budget()) break;
    std::optional<Schedule> s = search.next(n.schedule, a);
    if (!s) continue;
    n.schedule = std::move(*s);
    n.path.push_back(a);
    n.gflops = search.gflops(n.schedule.nest);
    best = std::max(best, n.gflops);
    search.consider(n);
  }
  return best;
}

std::vector<Action> random_actions(Rng& rng, int depth) {
  std::vector<Action> out;
  out.reserve(static_cast<std::size_t>(depth));
  for (int i = 0; i < depth; ++i)
    out.push_back(static_cast<Action>(rng.below(kActionCount)));
  return out;
}

constexpr std::int64_t kPatience = 2000;  // rollouts or annealing steps that find nothing new

void rollouts(Searcher& search, const Node& root, int depth, Rng& rng) {
  // A rollout draws among the legal actions at each step (so it never wastes a step).
  while (!search.out_of_budget() && !search.stale(kPatience)) {
    Node n = root;
    for (int d = 0; d < depth && !search.out_of_budget(); ++d) {
      std::vector<Schedule> legal;
      std::vector<Action> actions;
      for (int a = 0; a < kActionCount; ++a) {
        if (auto s = search.next(n.schedule, static_cast<Action>(a))) {
          legal.push_back(std::move(*s));
          actions.push_back(static_cast<Action>(a));
        }
      }
      if (legal.empty()) break;
      const std::size_t pick = rng.below(legal.size());
      n.schedule = std::move(legal[pick]);
      n.path.push_back(actions[pick]);
      n.gflops = search.gflops(n.schedule.nest);
      search.consider(n);
    }
  }
}

void anneal(Searcher& search, const Node& root, int depth, Rng& rng) {
  std::vector<Action> current = random_actions(rng, depth);
  double current_score = det_log(replay(search, root, current));
  // In log GFLOPS: a 26 % loss is accepted with probability 1/e at first, none at the end.
  const double start_temperature = 0.3;
  while (!search.out_of_budget() && !search.stale(kPatience)) {
    const double temperature = start_temperature * (1 - search.progress()) + 1e-3;
    std::vector<Action> trial = current;
    trial[rng.below(trial.size())] = static_cast<Action>(rng.below(kActionCount));
    const double score = det_log(replay(search, root, trial));
    const double u = static_cast<double>(rng.below(1u << 30)) / static_cast<double>(1u << 30);
    if (score >= current_score || u < det_exp((score - current_score) / temperature)) {
      current = std::move(trial);
      current_score = score;
    }
  }
}

}  // namespace

SearchResult run_search(SearchKind kind, int width, const Schedule& start, int depth,
                        const Successor& next, const Evaluate& evaluate, const SearchBudget& budget,
                        Rng& rng) {
  Searcher search(next, evaluate, budget);
  Node root{start, {}, 0};
  root.gflops = search.gflops(start.nest);
  search.consider(root);
  if (depth <= 0) return search.result();
  switch (kind) {
    case SearchKind::kBeamBfs:
      beam_bfs(search, root, width, depth);
      break;
    case SearchKind::kBeamDfs:
      beam_dfs(search, root, width, depth);
      break;
    case SearchKind::kRollouts:
      rollouts(search, root, depth, rng);
      break;
    case SearchKind::kAnneal:
      anneal(search, root, depth, rng);
      break;
  }
  return search.result();
}

}  // namespace sysgym::looptune
