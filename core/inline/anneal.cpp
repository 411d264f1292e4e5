#include "inline/anneal.hpp"

#include <cmath>

#include "base/det_math.hpp"
#include "base/error.hpp"
#include "base/rng.hpp"

namespace sysgym::inlining {
namespace {

void flip(Decisions& d, std::size_t site) {
  d[site] = !d[site];
}

// FYP's mutations over the sites clang may inline (`decidable`); `sites_of` holds, per function,
// its decidable sites.
void mutate(const Program& p, const std::vector<std::size_t>& decidable,
            const std::vector<std::vector<std::size_t>>& sites_of, Decisions& d, Rng& rng) {
  const std::size_t site = decidable[rng.below(decidable.size())];
  const std::uint64_t kind = rng.below(4);
  if (kind < 2) {
    flip(d, site);
  } else if (kind == 2) {
    const auto& mine = sites_of[p.sites[site].caller];  // holds `site`: never empty
    const std::uint64_t count = 2 + rng.below(7);
    for (std::uint64_t i = 0; i < count; ++i)
      flip(d, mine[rng.below(mine.size())]);
  } else {
    flip(d, site);
    for (std::size_t s : sites_of[p.sites[site].callee])
      flip(d, s);
  }
}

}  // namespace

AnnealResult anneal(const Program& p, const std::function<double(const Decisions&)>& cost,
                    const Decisions& start, const AnnealOptions& o) {
  std::vector<std::size_t> decidable;
  std::vector<std::vector<std::size_t>> sites_of(p.functions.size());
  for (std::size_t i = 0; i < p.sites.size(); ++i) {
    if (!p.sites[i].decidable()) continue;
    decidable.push_back(i);
    sites_of[p.sites[i].caller].push_back(i);
  }
  if (start.size() != p.sites.size() || decidable.empty())
    throw ConfigError("anneal: a start set of " + std::to_string(start.size()) + " decisions for " +
                      std::to_string(p.sites.size()) + " sites, " +
                      std::to_string(decidable.size()) + " of them clang may inline");
  if (!(o.t_start > 0) || !(o.t_end > 0) || o.t_end > o.t_start)
    throw ConfigError("anneal: temperatures must be positive and fall (t_start >= t_end > 0)");
  Rng rng(o.seed);
  AnnealResult r;
  Decisions current = start;
  double current_cost = cost(current);
  r.best = current;
  r.best_cost = r.start_cost = current_cost;
  std::size_t current_index = 0;  // of the current set in r.evaluated
  const auto keep = [&](const Decisions& d, double c) {
    if (!o.record) return;
    r.evaluated_parent.push_back(r.evaluated.empty() ? 0 : current_index);
    r.evaluated.push_back(d);
    r.evaluated_costs.push_back(c);
  };
  keep(current, current_cost);
  const double ratio =
      o.steps > 1 ? det_log(o.t_end / o.t_start) / static_cast<double>(o.steps - 1) : 0;
  for (std::size_t step = 0; step < o.steps; ++step) {
    const double temperature = o.t_start * det_exp(ratio * static_cast<double>(step));
    Decisions next = current;
    mutate(p, decidable, sites_of, next, rng);
    const double next_cost = cost(next);
    keep(next, next_cost);
    const double worse = next_cost - current_cost;
    if (worse <= 0 || rng.uniform() < det_exp(-worse / temperature)) {
      current = std::move(next);
      current_cost = next_cost;
      current_index = r.evaluated.empty() ? 0 : r.evaluated.size() - 1;
      ++r.accepted;
      if (current_cost < r.best_cost) {
        r.best = current;
        r.best_cost = current_cost;
      }
    }
    r.costs.push_back(current_cost);
  }
  return r;
}

}  // namespace sysgym::inlining
