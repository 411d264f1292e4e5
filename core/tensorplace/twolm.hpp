// AutoTM's hardware baseline, 2LM (Optane's Memory Mode): fast memory is a direct-mapped cache of
// slow memory, invisible to software. Tensors are laid out in one address space by the best-fit
// allocator in kernel order; the cache is simulated at 4 KiB pages (the hardware's lines are
// 64 B, but a tensor is read whole, and a page's lines map to consecutive sets, so two pages
// conflict exactly when their lines do). Per operand page:
//   read hit        bytes / fast read
//   read miss       bytes / slow read (the line is filled)
//   write           bytes / fast write (write-allocate, no fill: kernels write whole tensors)
//   evicting dirty  + bytes / slow write
// A kernel takes max(compute, its operands' memory time) (a time-table kernel: the row with the
// operands that missed on more than half their pages in slow memory). The iteration runs twice
// and the second is timed: the steady state of training, not a cold cache.
#pragma once

#include <cstdint>

#include "tensorplace/graph.hpp"
#include "tensorplace/platform.hpp"

namespace sysgym::tensorplace {

struct TwoLmResult {
  double iteration_s = 0;
  double hit_share = 0;  // of the bytes the kernels read and write
  std::uint64_t bytes_filled = 0;
  std::uint64_t bytes_written_back = 0;
};

TwoLmResult simulate_2lm(const Graph& graph, const Platform& platform, std::uint64_t cache_bytes);

}  // namespace sysgym::tensorplace
