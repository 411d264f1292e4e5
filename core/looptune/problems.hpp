// The computations looptune tunes: generated ones named by a spec, and any other written as
// JSON.
//
//   matmul:MxNxK        C[m][n] += A[m][k] * B[k][n]   (vars m, n, k)
//   conv3x3:NxCxKxHxW   out[n][k][h][w] += in[n][c][h+r][w+s] * w[k][c][r][s]
//                       (vars n, k, h, w, c, r, s; the input is padded: (H+2) x (W+2))
//
// JSON ("sysgym-looptune-problem", version 1): each tensor's dimensions are sums of variables,
// row-major, so a dimension's size is the sum of its variables' ranges less one each, plus one:
//
//   {"format": "sysgym-looptune-problem", "version": 1, "name": "batched-dot",
//    "vars": [{"name": "b", "size": 32}, {"name": "i", "size": 256}],
//    "a": {"name": "x", "dims": [["b"], ["i"]]}, "b": {"name": "y", "dims": [["b"], ["i"]]},
//    "out": {"name": "z", "dims": [["b"]]}}
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "looptune/loop_nest.hpp"

namespace sysgym::looptune {

// Throws ConfigError naming the spec and what does not parse, or a size of 0 or above the limit.
std::shared_ptr<const Problem> problem_from_spec(const std::string& spec);
std::shared_ptr<const Problem> problem_from_json(const nlohmann::json& j,
                                                 const std::string& context);
// The problem as JSON in the format above (generated problems included: their dims).
nlohmann::json problem_to_json(const Problem& problem);

// LoopTune's benchmark as named sets of specs: matmuls with M, N and K each 64 to 256 in steps
// of 16 (2,197 problems) split 90/10 by a hash of the sizes ("matmul-train", "matmul-test"),
// and 3x3 convolutions ("conv-train", "conv-test"). Sizes drawn at random, any integer, split
// the same way: matmuls with M, N and K each 16 to 512 ("matmul-random-train", "-test"; none on
// LoopTune's grid) and 3x3 convolutions with 16 to 512 channels each way on images 16 to 64 a
// side ("conv-random-train", "-test"). Empty for an unknown name.
std::vector<std::string> problem_set(const std::string& name);
const std::vector<std::string>& problem_set_names();

}  // namespace sysgym::looptune
