// Calibrating the cost model against measurement: random nests of a problem (what an agent or a
// search visits), their measured GFLOPS, the model's rank correlation with them, and a fit of
// the model's speeds and bandwidths to them.
#pragma once

#include <cstdint>
#include <vector>

#include "looptune/actions.hpp"
#include "looptune/cost_model.hpp"

namespace sysgym::looptune {

// Up to `count` distinct random nests (by hash): each variable split into 1 to 3 loops (inner
// loops of 2 to 32 steps; the outermost covers the rest with its tail), the loops of all
// variables interleaved at random, at most `max_loops` in all, and the innermost covering 1, a
// multiple of the SIMD width or what the untuned nest's innermost does (the nests the actions
// can reach); with `annotations`, random unroll and vectorize flags where those actions could set
// them. Deterministic in `seed`; fewer for a problem with fewer nests.
std::vector<LoopNest> random_nests(const std::shared_ptr<const Problem>& problem, std::size_t count,
                                   std::uint64_t seed, std::size_t max_loops, bool annotations);

struct CalibrationSample {
  LoopNest nest;
  double measured_gflops = 0;
};

// Spearman's rank correlation between the model's GFLOPS and the measured ones.
double model_spearman(const CostModel& model, const std::vector<CalibrationSample>& samples,
                      bool annotations);
// The mean of log(model / measured)^2: how far off the model's figures are, not just its order.
double model_log_error(const CostModel& model, const std::vector<CalibrationSample>& samples,
                       bool annotations);

// `start` with its speeds, call overhead and bandwidths (not the cache sizes, which are the
// machine's) fitted to the samples: coordinate descent in log space on model_log_error.
CostModel fit_cost_model(const CostModel& start, const std::vector<CalibrationSample>& samples,
                         bool annotations);

}  // namespace sysgym::looptune
