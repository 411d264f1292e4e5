// The native MILP solver: COIN-OR CBC (Debian coinor-libcbc-dev) reading the core's LP text.
#pragma once

#include "tensorplace/ilp.hpp"

namespace sysgym::cli {

tensorplace::SolveResult solve_with_cbc(const std::string& lp,
                                        const tensorplace::SolveOptions& options);

}  // namespace sysgym::cli
