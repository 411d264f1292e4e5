// The native MILP solver: COIN-OR CBC (Debian coinor-libcbc-dev) reading the core's LP text.
#pragma once

#include <chrono>

#include "tensorplace/ilp.hpp"

namespace sysgym::cli {

tensorplace::SolveResult solve_with_cbc(const std::string& lp,
                                        const tensorplace::SolveOptions& options);

// CBC with a deadline over every solve it is given (a command's --time-limit, counted from its
// start: building the model, earlier solves): each gets what is left of it, in a child process
// killed half a second past the deadline when CBC overruns its own limit (it checks it only
// between search nodes). None left is the status "time limit" without a solution.
tensorplace::IlpSolver cbc_until(std::chrono::steady_clock::time_point deadline);
// CBC with each solve held to its own time limit the same way (sweep's --time-limit, per solve).
tensorplace::IlpSolver cbc_each_within_its_limit();

}  // namespace sysgym::cli
