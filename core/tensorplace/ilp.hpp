// AutoTM's integer linear program, written as CPLEX LP text that any MILP solver reads (CBC
// natively, HiGHS in a browser), so both shells solve the same model. Times in milliseconds, sizes
// in MiB (pages are exact in binary). With each tensor's decisions from tensor_flow.hpp:
//
//   minimise   sum_k t_k + synchronous move times + returns of persistent tensors
//   subject to t_k >= compute time of k                         (roofline kernels)
//              t_k >= all-fast memory time of k + sum over operands i of slow_i,k * bytes_i *
//                     (1/slow bw - 1/fast bw)                   (slow_i,k: in slow memory at k)
//                     (a kernel with a time table picks one row of it with binaries y_kc tied to
//                     its operands' slow_i,k)
//              t_k >= sum of the asynchronous moves overlapped with k       (async)
//              sum over tensors of MiB_t * fast_t,k <= fast limit in MiB at each kernel where a
//                     tensor's fast share can grow
//
// Its optimum is the best plan's iteration time under simulator.hpp's model exactly, within the
// moves the variant allows: static <= sync <= async in what they allow, so static >= sync >=
// async in what they achieve.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tensorplace/graph.hpp"
#include "tensorplace/platform.hpp"
#include "tensorplace/simulator.hpp"
#include "tensorplace/tensor_flow.hpp"

namespace sysgym::tensorplace {

// Terms of the fast-memory rows a model may have (about 600 MB of LP text). The zoo's largest
// models need 3.0 million (DenseNet-264) and 2.2 million (VGG-416) at 10 % fast memory, at any
// batch; a chain of 50,000 kernels with persistent weights would need 2.5 billion.
inline constexpr std::uint64_t kMaxCapacityTerms = 20'000'000;

struct IlpModel {
  std::string lp;  // CPLEX LP text
  std::size_t binaries = 0;
  std::size_t rows = 0;
  std::vector<std::string> names;   // every variable's name, by index
  std::vector<TensorFlow> tensors;  // each tensor's decisions
};

// Throws ConfigError naming the kernel when no placement fits the limit.
IlpModel build_ilp(const Graph& graph, const Platform& platform, std::uint64_t fast_limit,
                   IlpVariant variant);
// The same with a limit per kernel (AutoTM's defragmentation lowers it where the heap overflows).
IlpModel build_ilp(const Graph& graph, const Platform& platform,
                   const std::vector<std::uint64_t>& limits, IlpVariant variant);

struct SolveOptions {
  double time_limit_s = 60;
  double relative_gap = 1e-4;
  // A starting solution (variable name -> value), e.g. the best heuristic's.
  std::map<std::string, double> start;
  // Seconds left of the caller's deadline, when it has one: no model is built when none are
  // left (the outcome is the status "time limit" without a solution).
  std::function<double()> seconds_left;

  // Counts seconds_left down to `deadline` (a command's time limit, counted from its start).
  void count_down_to(std::chrono::steady_clock::time_point deadline);
  // What one solve may take: time_limit_s, or what is left of the deadline when that is less.
  double seconds_for_a_solve() const;
};

// The moment `seconds` from now, and the seconds from now until a moment (negative once past).
std::chrono::steady_clock::time_point deadline_after(double seconds);
double seconds_until(std::chrono::steady_clock::time_point deadline);

struct SolveResult {
  // "optimal", "time limit" (the incumbent, if any, and the bound are kept), "infeasible",
  // "error: ..." (the solver's words).
  std::string status;
  bool has_solution = false;
  double objective = 0;  // milliseconds
  double bound = 0;      // the best bound proven
  double seconds = 0;
  std::map<std::string, double> values;
  // (objective - bound) / objective: how far from the optimum the solution may be.
  double gap() const { return objective > 0 ? (objective - bound) / objective : 0.0; }
};

// A MILP solver for LP text: natively CBC (native/families/tensorplace), in the npm package
// HiGHS; the core never links one.
using IlpSolver = std::function<SolveResult(const std::string& lp, const SolveOptions& options)>;

// The plan a solution describes.
Plan ilp_plan(const Graph& graph, const IlpModel& model, const SolveResult& solution);
// A plan as a starting solution of the model: nothing when the plan moves a tensor where the
// variant cannot (a static plan always fits; a sync plan fits the async model).
std::optional<std::map<std::string, double>> ilp_start(const IlpModel& model, const Plan& plan);

struct IlpOutcome {
  std::size_t binaries = 0;
  std::size_t rows = 0;
  SolveResult result;
  std::optional<Plan> plan;          // when the solver found one
  std::optional<Simulation> replay;  // the plan replayed by the simulator
  int defrag_rounds = 0;             // solves again after the first
};

// Builds the variant's model, solves it from `start` (when the variant can follow it) and
// replays the plan found. The ILP counts bytes; the replay also places blocks with the best-fit
// allocator. With `defrag_rounds`, AutoTM's defragmentation: while the plan's heap overflows the
// limit, the limit shrinks by the overflow at the kernels where it does and the ILP is solved
// again, at most that many times. Throws ConfigError when no placement fits the limit.
IlpOutcome solve_ilp(const Graph& graph, const Platform& platform, std::uint64_t fast_limit,
                     IlpVariant variant, const IlpSolver& solver, const SolveOptions& options,
                     const Plan& start, int defrag_rounds = 0);

}  // namespace sysgym::tensorplace
