// What `sysgym tensorplace zoo` and `graph` print, as JSON and as text, built in core for both
// shells.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "tensorplace/graph.hpp"
#include "tensorplace/ilp.hpp"
#include "tensorplace/platform.hpp"

namespace sysgym::tensorplace {

// A graph's size: kernels, tensors by role, parameter and peak live bytes (and the kernel where
// the peak is), the largest kernel working set, forward and total FLOPs.
nlohmann::json graph_summary(const Graph& graph);
std::string graph_summary_text(const nlohmann::json& summary);

// Every zoo model at `batch`: name, summary and graph_summary().
nlohmann::json zoo_report(std::uint32_t batch);
std::string zoo_text(const nlohmann::json& report);

// `sysgym tensorplace ilp`: the variant's ILP solved by `solver`, its plan replayed, next to the
// heuristics' and the all-fast and all-slow times. The variants before it are solved first, each
// starting the next (the first from the better of greedy and first-touch). Throws ConfigError
// when the limit fits no placement. With `plan`, also the plan found as plan JSON
// (plan_json.hpp; left as it was when none was found).
nlohmann::json ilp_report(const Graph& graph, const Platform& platform, std::uint64_t fast_limit,
                          IlpVariant variant, const IlpSolver& solver, const SolveOptions& options,
                          nlohmann::json* plan = nullptr, int defrag_rounds = 0);
std::string ilp_text(const nlohmann::json& report);

}  // namespace sysgym::tensorplace
