// Replays a placement plan over one training iteration and times it (AutoTM's model):
//
//   iteration time = sum over kernels k of  sync_k + max(kernel_k, async_k)
//
// where kernel_k is the kernel's time with its operands where they are (platform.hpp), sync_k
// the moves that stall before it, and async_k the moves overlapped with it. A move to slow memory
// costs nothing when the tensor's slow copy is still clean (it was in slow memory and has not been
// written since); a move to fast memory always copies. Tensors that live across iterations
// (parameters, constants, io) must end where they started: the simulator moves them back
// synchronously after the last kernel when a plan does not.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "tensorplace/graph.hpp"
#include "tensorplace/machine.hpp"
#include "tensorplace/platform.hpp"

namespace sysgym::tensorplace {

struct Move {
  std::uint32_t kernel = 0;  // sync: before this kernel; async: during it, usable after it
  std::uint32_t tensor = 0;
  Pool to = kFast;
  bool async = false;
};

// Where each tensor is when it is born (intermediates) or at the first kernel (the others), and
// the moves, in any order.
struct Plan {
  std::vector<Pool> initial;
  std::vector<Move> moves;
};

struct KernelTiming {
  double kernel_s = 0;
  double sync_s = 0;
  double async_s = 0;
  std::uint64_t fast_bytes = 0;  // allocated in fast memory while the kernel runs
  std::uint64_t heap_top = 0;    // the end of the fast heap's highest block while it runs
};

struct Simulation {
  double iteration_s = 0;
  double kernel_s = 0;       // the kernels alone
  double sync_s = 0;         // stalls for synchronous moves (returns at the end included)
  double async_stall_s = 0;  // where async moves outlast their kernel
  std::uint64_t bytes_to_fast = 0;
  std::uint64_t bytes_to_slow = 0;  // copies actually written (clean copies are free)
  std::uint64_t peak_fast_bytes = 0;
  // The extent of the fast pool's best-fit heap (allocator.hpp): what the plan needs once
  // fragmentation is counted (>= peak_fast_bytes, not checked against the limit).
  std::uint64_t fast_heap_bytes = 0;
  std::vector<KernelTiming> kernels;
};

// Throws ConfigError naming the kernel and tensor when the plan is not executable: a pool a
// tensor may not use, a move of a tensor that is not live or already there, an async move farther
// than the platform's window from every user, or fast memory over `fast_limit` at a kernel.
Simulation simulate(const Graph& graph, const Platform& platform, const Plan& plan,
                    std::uint64_t fast_limit);

// Throws ConfigError naming the tensor and kernel when move `m` cannot run at its kernel: outside
// the graph, a pool the tensor may not use, outside its lifetime, or an asynchronous move farther
// than the platform's window from every user.
void check_move(const Graph& graph, const Platform& platform, const Move& m);

// Runs kernel k on `machine` with its moves (checked by check_move): the births, the synchronous
// moves, the limit (an asynchronous move to fast memory holds its space from the start of its
// kernel), the kernel, then the asynchronous moves landing. The caller ends the kernel
// (Machine::end_kernel). Throws ConfigError naming the kernel for a move to where the tensor
// already is or fast memory over `fast_limit`. The replay and the env's plan steps share it.
KernelTiming run_kernel_moves(const Graph& graph, Machine& machine, std::uint32_t k,
                              std::span<const Move> moves, std::uint64_t fast_limit);

// The iteration's time with every tensor in fast memory (no limit) and with every one in slow
// memory: the bounds any placement lies between.
double all_fast_seconds(const Graph& graph, const Platform& platform);
double all_slow_seconds(const Graph& graph, const Platform& platform);

// Reference plans: every tensor in one pool (where allowed), and first-touch NUMA (fast while
// it fits when the tensor is created, never moved).
Plan all_in(const Graph& graph, Pool pool);
Plan first_touch(const Graph& graph, std::uint64_t fast_limit);

}  // namespace sysgym::tensorplace
