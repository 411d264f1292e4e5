// A placement plan as JSON ("sysgym-tensorplace-plan", version 1), what `sysgym tensorplace ilp
// --write-plan` writes and the `plan` policy follows:
//
//   {"format": "sysgym-tensorplace-plan", "version": 1, "model": "vgg19", "batch": 16,
//    "fast_limit_bytes": 818315264, "variant": "async", "iteration_ms": 734.04,
//    "slow": ["conv1_1.w", ...],            tensors in slow memory when born (or at kernel 0)
//    "moves": [{"kernel": "conv2_1", "tensor": "relu1_2", "to": "slow", "async": true}, ...]}
//
// A synchronous move runs before its kernel, an asynchronous one during it (simulator.hpp).
// Tensors and kernels go by name, so a plan reads against any copy of its graph.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "tensorplace/graph.hpp"
#include "tensorplace/simulator.hpp"

namespace sysgym::tensorplace {

// `about`: fields written beside the plan (fast_limit_bytes, variant, iteration_ms, ...).
nlohmann::json plan_to_json(const Graph& graph, const Plan& plan, const nlohmann::json& about);
// Throws ConfigError naming `context` and the field at fault: another format or version, a graph
// of another model, batch or size, an unknown tensor or kernel, a pool not "fast" or "slow".
Plan plan_from_json(const nlohmann::json& j, const Graph& graph, const std::string& context);
// plan_from_json, and the plan's fast_limit_bytes (when it has one) must be `fast_limit`.
Plan plan_for_limit(const nlohmann::json& j, const Graph& graph, std::uint64_t fast_limit,
                    const std::string& context);

}  // namespace sysgym::tensorplace
