// The graph's JSON form, versioned (docs/file-formats.md): what `sysgym tensorplace graph`
// writes and what a user writes by hand or from a framework's trace.
//
//   {"format": "sysgym-tensorplace-graph", "version": 1, "model": "vgg19", "batch": 256,
//    "tensors": [{"name": "conv1.w", "bytes": 6912, "role": "parameter",
//                 "pools": ["fast", "slow"]}, ...],
//    "kernels": [{"name": "conv1", "op": "conv", "inputs": ["x", "conv1.w"],
//                 "outputs": ["conv1.y"], "flops": 2.2e10}, ...]}
//
// A kernel gives "flops" (timed by the roofline model) or "times" (seconds per placement of its
// operands, 2^operands entries, bit i = operand i in slow memory) or both.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "tensorplace/graph.hpp"

namespace sysgym::tensorplace {

inline constexpr const char* kGraphFormat = "sysgym-tensorplace-graph";
inline constexpr int kGraphVersion = 1;

// Throws ConfigError naming `source` and the tensor, kernel or key at fault.
Graph graph_from_json(const nlohmann::json& j, const std::string& source);
nlohmann::json graph_to_json(const Graph& graph);

}  // namespace sysgym::tensorplace
