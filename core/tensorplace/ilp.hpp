// AutoTM's integer linear program, written as CPLEX LP text that any MILP solver reads (CBC
// natively, HiGHS in a browser), so both shells solve the same model.
//
// Static variant (a tensor stays in the pool it was created in): one binary x_t per tensor
// (1 = slow memory) and one time t_k per kernel (milliseconds):
//
//   minimise   sum_k t_k
//   subject to t_k >= compute time of k
//              t_k >= all-fast memory time of k + sum over operands i of x_i * bytes_i * (1/slow bw
//              - 1/fast bw)
//                     (roofline kernels; a kernel with a time table picks one row of it with
//                     binaries
//                      y_kc tied to its operands' x)
//              sum over tensors live at k of MiB_t * (1 - x_t) <= fast limit in MiB, at each kernel
//                     where a tensor is born (live bytes only grow there)
//
// Its optimum is the best static placement's iteration time under simulator.hpp's model exactly.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tensorplace/graph.hpp"
#include "tensorplace/platform.hpp"
#include "tensorplace/simulator.hpp"

namespace sysgym::tensorplace {

struct IlpModel {
  std::string lp;                      // CPLEX LP text
  std::vector<std::string> placement;  // the binary that places each tensor ("" when forced)
  std::size_t binaries = 0;
  std::size_t rows = 0;
};

IlpModel static_ilp(const Graph& graph, const Platform& platform, std::uint64_t fast_limit);

struct SolveOptions {
  double time_limit_s = 60;
  double relative_gap = 1e-4;
  // A starting solution (variable name -> value), e.g. the best heuristic's.
  std::map<std::string, double> start;
};

struct SolveResult {
  // "optimal", "time limit" (the incumbent, if any, and the bound are kept), "infeasible",
  // "error: ..." (the solver's words).
  std::string status;
  bool has_solution = false;
  double objective = 0;  // milliseconds
  double bound = 0;      // the best bound proven
  double seconds = 0;
  std::map<std::string, double> values;
};

// A MILP solver for LP text: natively CBC (native/families/tensorplace), in the npm package
// HiGHS; the core never links one.
using IlpSolver = std::function<SolveResult(const std::string& lp, const SolveOptions& options)>;

// The static plan a solution describes (x >= 0.5: slow).
Plan static_plan(const Graph& graph, const IlpModel& model, const SolveResult& solution);
// A plan as a starting solution of the static model.
std::map<std::string, double> static_start(const IlpModel& model, const Plan& plan);

}  // namespace sysgym::tensorplace
