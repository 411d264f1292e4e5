// `sysgym tensorplace sweep`: predicted iteration time against the fast-memory ratio for each
// optimizer (AutoTM's Figures 7 and 9), and the static heuristics it compares with the ILP.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/progress.hpp"
#include "tensorplace/ilp.hpp"
#include "tensorplace/simulator.hpp"

namespace sysgym::tensorplace {

// Static greedy by benefit density: tensors in decreasing order of the memory time they save in
// fast memory per byte and kernel of lifetime, each placed in fast memory if it fits at every
// kernel of its lifetime.
Plan greedy_plan(const Graph& graph, const Platform& platform, std::uint64_t fast_limit);

// "all-slow", "first-touch", "2lm" (twolm.hpp), "greedy", and the ILP variants "static", "sync",
// "async" (need a solver). The default leaves out async: its models are the largest (ResNet-50 at
// batch 64: 35 k binaries, not solved to 1 % in a minute).
const std::vector<std::string>& sweep_optimizers();
std::vector<std::string> default_sweep_optimizers();

// Ratios as AutoTM writes them, slow:fast ("1:1", "4:1"), or "0" for no slow memory; each row
// gives every optimizer's iteration time and slowdown against all-fast (and the ILP's status).
// Each ILP solve may take options.time_limit_s; with options.seconds_left (a limit over the whole
// sweep) no more than an equal share of what is left for the solves to come. `progress` counts
// optimizer runs. Throws ConfigError / UnknownNameError naming the ratio or
// optimizer.
nlohmann::json sweep_report(const Graph& graph, const Platform& platform,
                            const std::vector<std::string>& ratios,
                            const std::vector<std::string>& optimizers, const IlpSolver& solver,
                            const SolveOptions& options, const ProgressFn& progress = {});
std::string sweep_text(const nlohmann::json& report);

}  // namespace sysgym::tensorplace
