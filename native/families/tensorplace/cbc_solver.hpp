// The native MILP solver: COIN-OR CBC (Debian coinor-libcbc-dev) reading the core's LP text.
#pragma once

#include <chrono>
#include <optional>

#include "tensorplace/ilp.hpp"

namespace sysgym::cli {

tensorplace::SolveResult solve_with_cbc(const std::string& lp,
                                        const tensorplace::SolveOptions& options);

// CBC holding each solve to its own time limit and to the command's deadline, if any, whichever
// comes first: in a child process killed 1 s + 5 % of the limit past it, because CBC checks its
// limit only between search nodes. A solve with no time left is the status "time limit"
// without a solution.
tensorplace::IlpSolver cbc_until(std::optional<std::chrono::steady_clock::time_point> deadline);

}  // namespace sysgym::cli
