#include "looptune/calibration.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <unordered_set>
#include <vector>

#include "base/rank_stats.hpp"
#include "base/rng.hpp"
#include "looptune/limits.hpp"

namespace sysgym::looptune {
namespace {

// One variable's loops, outermost first: inner loops of 2 to 32 steps while they fit, the
// outermost covering the range with a tail.
std::vector<Loop> split_var(std::uint32_t var, std::int64_t size, std::size_t loops, Rng& rng) {
  std::vector<Loop> inner;  // innermost first
  std::int64_t step = 1;
  while (inner.size() + 1 < loops) {
    const std::int64_t f = std::int64_t{2} << rng.below(5);
    if (step * f > size) break;
    inner.push_back(Loop{var, f, 0});
    step *= f;
  }
  std::vector<Loop> out = {Loop{var, size / step, size % step}};
  out.insert(out.end(), inner.rbegin(), inner.rend());
  return out;
}

// Moves the innermost loop of a row var (outputs strided), then of a reduction var (not in the
// output), then of the output's unit-stride var to the end, keeping each var's loops in order.
void register_friendly_tail(const Problem& p, std::vector<Loop>& loops, Rng& rng) {
  std::vector<std::uint32_t> rows;
  std::vector<std::uint32_t> reductions;
  std::vector<std::uint32_t> columns;
  for (std::uint32_t v = 0; v < p.vars.size(); ++v) {
    const std::int64_t so = p.out.stride[v];
    (so == 0 ? reductions : so == 1 ? columns : rows).push_back(v);
  }
  if (rows.empty() || reductions.empty() || columns.empty()) return;
  for (std::uint32_t v : {rows[rng.below(rows.size())], reductions[rng.below(reductions.size())],
                          columns[rng.below(columns.size())]}) {
    const auto last =
        std::find_if(loops.rbegin(), loops.rend(), [v](const Loop& l) { return l.var == v; });
    const Loop moved = *last;
    loops.erase(std::next(last).base());
    loops.push_back(moved);
  }
}

std::optional<LoopNest> random_nest(const std::shared_ptr<const Problem>& problem,
                                    std::size_t max_loops, bool annotations, Rng& rng) {
  const std::size_t vars = problem->vars.size();
  std::vector<std::vector<Loop>> per_var;
  std::size_t total = 0;
  for (std::uint32_t v = 0; v < vars; ++v) {
    const std::size_t spare = max_loops - total - (vars - v - 1);  // one loop for each var left
    const std::size_t want = std::min<std::size_t>(1 + rng.below(3), spare);
    per_var.push_back(split_var(v, problem->vars[v].size, want, rng));
    total += per_var.back().size();
  }
  // A uniformly random interleaving: the next loop comes from a var with probability in
  // proportion to the loops it has left.
  std::vector<Loop> loops;
  std::vector<std::size_t> next(vars, 0);
  for (std::size_t left = total; left > 0; --left) {
    std::uint64_t pick = rng.below(left);
    std::size_t v = 0;
    while (pick >= per_var[v].size() - next[v]) {
      pick -= per_var[v].size() - next[v];
      ++v;
    }
    loops.push_back(per_var[v][next[v]++]);
  }
  // A third of the nests end as the register kernels want (a row loop, a reduction, unit-stride
  // outputs: matmul's m, k, n), so the kernels the searches seek are as well sampled as those
  // they leave behind; a random interleaving rarely draws that order.
  if (rng.below(3) == 0) register_friendly_tail(*problem, loops, rng);
  if (annotations) {
    if (loops.size() >= 2 && rng.below(2) == 0) loops[loops.size() - 2].unroll = true;
    if (rng.below(2) == 0) loops.back().vectorize = true;
  }
  LoopNest nest(problem, std::move(loops));
  const LoopNest untuned = LoopNest::initial(problem);
  const std::size_t q = nest.size() - 1;
  const std::int64_t e = nest.extent(q);
  const bool as_untuned =
      nest.loop(q).var == untuned.loops().back().var && e == untuned.extent(untuned.size() - 1);
  if (e != 1 && e % kSimdWidth != 0 && !as_untuned) return std::nullopt;
  if (nest.loop(q).vectorize && e % kSimdWidth != 0) return std::nullopt;
  if (q >= 1 && nest.loop(q - 1).unroll && nest.extent(q - 1) > kMaxUnrollExtent)
    return std::nullopt;
  return nest;
}

}  // namespace

std::vector<LoopNest> random_nests(const std::shared_ptr<const Problem>& problem, std::size_t count,
                                   std::uint64_t seed, std::size_t max_loops, bool annotations) {
  Rng rng(seed);
  std::vector<LoopNest> nests;
  std::unordered_set<std::uint64_t> seen;
  // Draws that keep failing or repeating end the search: a small problem has few nests.
  for (std::size_t attempts = 0; nests.size() < count && attempts < 50 * count; ++attempts) {
    std::optional<LoopNest> nest = random_nest(problem, max_loops, annotations, rng);
    if (nest && seen.insert(nest->hash()).second) nests.push_back(std::move(*nest));
  }
  return nests;
}

namespace {

std::vector<double> model_figures(const CostModel& model,
                                  const std::vector<CalibrationSample>& samples, bool annotations) {
  std::vector<double> out;
  out.reserve(samples.size());
  for (const CalibrationSample& s : samples)
    out.push_back(model.gflops(s.nest, annotations));
  return out;
}

}  // namespace

double model_spearman(const CostModel& model, const std::vector<CalibrationSample>& samples,
                      bool annotations) {
  std::vector<double> measured;
  measured.reserve(samples.size());
  for (const CalibrationSample& s : samples)
    measured.push_back(s.measured_gflops);
  return spearman(model_figures(model, samples, annotations), measured);
}

double model_log_error(const CostModel& model, const std::vector<CalibrationSample>& samples,
                       bool annotations) {
  const std::vector<double> figures = model_figures(model, samples, annotations);
  double sum = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double e = std::log(figures[i] / samples[i].measured_gflops);
    sum += e * e;
  }
  return samples.empty() ? 0 : sum / static_cast<double>(samples.size());
}

CostModel fit_cost_model(const CostModel& start, const std::vector<CalibrationSample>& samples,
                         bool annotations) {
  const std::array<double CostModel::*, 12> fitted = {&CostModel::block_points_per_ns,
                                                      &CostModel::block_step_ns,
                                                      &CostModel::vector_points_per_ns,
                                                      &CostModel::unit_points_per_ns,
                                                      &CostModel::strided_points_per_ns,
                                                      &CostModel::line_points_per_ns,
                                                      &CostModel::call_ns,
                                                      &CostModel::entry_ns,
                                                      &CostModel::tile_output_ns,
                                                      &CostModel::l2_gbps,
                                                      &CostModel::llc_gbps,
                                                      &CostModel::dram_gbps};
  CostModel best = start;
  double error = model_log_error(best, samples, annotations);
  // Moves: each field alone, and each pair of fields together (a kernel's speed and a
  // bandwidth that caps it move along a ridge that single steps cannot climb).
  std::vector<std::vector<double CostModel::*>> moves;
  for (std::size_t i = 0; i < fitted.size(); ++i) {
    moves.push_back({fitted[i]});
    for (std::size_t j = i + 1; j < fitted.size(); ++j)
      moves.push_back({fitted[i], fitted[j]});
  }
  for (double factor : {2.0, 1.4, 1.15, 1.04}) {
    for (int round = 0; round < 12; ++round) {
      bool improved = false;
      for (const auto& move : moves) {
        for (double scale : {factor, 1 / factor}) {
          CostModel trial = best;
          bool in_range = true;
          for (double CostModel::*field : move) {
            trial.*field *= scale;
            // Few or flat samples leave a parameter free to run off: keep it where a cost
            // model file may put it.
            in_range = in_range && trial.*field >= 1e-3 && trial.*field <= 1e6;
          }
          if (!in_range) continue;
          const double e = model_log_error(trial, samples, annotations);
          if (e < error) {
            best = trial;
            error = e;
            improved = true;
          }
        }
      }
      if (!improved) break;
    }
  }
  return best;
}

}  // namespace sysgym::looptune
