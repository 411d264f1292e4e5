// Where every tensor is while an iteration runs, and what moving it costs: the state the plan
// replay (simulator.hpp) and the env step through kernel by kernel. A move to slow memory is free
// while the tensor's slow copy is clean (it was in slow memory and has not been written since).
#pragma once

#include <cstdint>
#include <vector>

#include "tensorplace/allocator.hpp"
#include "tensorplace/graph.hpp"
#include "tensorplace/platform.hpp"

namespace sysgym::tensorplace {

class Machine {
 public:
  // `initial`: each tensor's pool at its birth (intermediates) or at the first kernel. With
  // `track_heap`, fast memory is also allocated block by block (best fit) to measure its
  // fragmentation.
  Machine(const Graph& graph, const Platform& platform, std::vector<Pool> initial,
          bool track_heap = false);

  Pool where(std::uint32_t t) const { return where_[t]; }
  // Allocated bytes of the live tensors in fast memory.
  std::uint64_t fast_bytes() const { return fast_; }
  // The pool a tensor not yet born will take.
  void set_birth_pool(std::uint32_t t, Pool pool) { initial_[t] = pool; }
  Pool birth_pool(std::uint32_t t) const { return initial_[t]; }

  // Tensors born at kernel k take their birth pool (call first at each kernel).
  void begin_kernel(std::uint32_t k);
  // The seconds moving t to `to` takes (0 for a clean copy to slow memory), counting the bytes.
  double move_cost(std::uint32_t t, Pool to, bool async);
  // Puts t in `to` (after a synchronous move, or when an asynchronous one completes).
  void place(std::uint32_t t, Pool to);
  // Kernel k's time with its operands where they are; its outputs' slow copies go stale.
  double run_kernel(std::uint32_t k);
  // Frees the intermediates whose last use was kernel k.
  void end_kernel(std::uint32_t k);
  // After the last kernel: seconds to put the tensors that live across iterations back in their
  // initial pools (synchronously).
  double return_persistent();

  // The fast heap's extent so far (with `track_heap`): what the placement needs with fragmentation.
  std::uint64_t fast_heap_bytes() const { return heap_.extent(); }
  std::uint64_t fast_heap_top() const { return heap_.top(); }
  std::uint64_t bytes_to_fast() const { return bytes_to_fast_; }
  std::uint64_t bytes_to_slow() const { return bytes_to_slow_; }

 private:
  const Graph& graph_;
  const Platform& platform_;
  std::vector<Pool> initial_;
  std::vector<Pool> where_;
  std::vector<bool> clean_;
  std::uint64_t fast_ = 0;
  std::uint64_t bytes_to_fast_ = 0;
  std::uint64_t bytes_to_slow_ = 0;
  std::vector<Pool> start_;  // persistent tensors' pools at the first kernel
  bool track_heap_;
  BestFitAllocator heap_;
  std::vector<std::uint64_t> offset_;  // in the fast heap

  void enter_fast(std::uint32_t t);
  void leave_fast(std::uint32_t t);
};

}  // namespace sysgym::tensorplace
