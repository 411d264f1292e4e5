// Runs any legal loop nest for real: an interpreter over the loops' precomputed strides whose
// innermost loops are handed to a micro-kernel picked from their strides:
//
//   register block a register tile over up to kMaxBlockRows rows: the loop above the tile's
//                  reduction walks rows of outputs (matmul's m above k above n), the inner
//                  operand is read unit-stride and the outer one once per row and step (matmul's
//                  A[m][k]); the rows' outputs stay in registers across the reduction, and each
//                  loaded element of the inner operand serves every row (the outer-product
//                  kernel of tuned GEMMs)
//   register tile  the innermost loop writes unit-stride outputs (so = 1) and the loop above it
//                  adds into the same outputs (so = 0): the outputs stay in registers across it
//                  (matmul's k above n); up to kMaxTile outputs
//   dot            the innermost loop adds into one output (so = 0), four partial sums
//   axpy           the innermost loop writes unit-stride outputs
//   strided        anything else, one element at a time
//
// SIMD comes from the compiler: executor.cpp is built with -O3 and the host's vector unit
// natively, -msimd128 in WebAssembly. With `annotations` off the executor picks the best kernel
// the strides allow (as loop_tool's JIT would); on, it takes a register tile only where the loop
// above the innermost is marked unroll (a block: the row loop too) and the unit-stride kernels
// only where the innermost is marked vectorize (actions.hpp), else the strided one.
#pragma once

#include <cstdint>
#include <vector>

#include "looptune/loop_nest.hpp"

namespace sysgym::looptune {

inline constexpr std::int64_t kMaxTile = 64;      // outputs of a register tile (per row)
inline constexpr std::int64_t kMaxBlockRows = 8;  // rows of a register block

// The operands of a problem, filled with small integers (-2 to 2, from `seed`): every partial
// sum is an integer below 2^24, so any order of the additions gives the exact result.
struct Operands {
  std::vector<float> a;
  std::vector<float> b;
  std::vector<float> out;
};
Operands make_operands(const Problem& problem, std::uint64_t seed);

// out += a * b in the problem's own order, one point at a time: what every nest must compute.
void reference(const Problem& problem, const float* a, const float* b, float* out);

enum class Kernel { kBlock, kTile, kDot, kAxpy, kStrided };
const char* kernel_name(Kernel k);
// The micro-kernel the executor runs the innermost loops of `nest` with, and how many loops it
// takes (3 for a block, 2 for a tile, else 1).
Kernel pick_kernel(const LoopNest& nest, bool annotations);
std::size_t kernel_levels(Kernel kernel);

class Executor {
 public:
  Executor(const LoopNest& nest, bool annotations);
  // out += a * b over the nest (out is not cleared).
  void run(const float* a, const float* b, float* out) const;
  Kernel kernel() const { return kernel_; }

 private:
  struct Level {
    std::uint32_t var;
    std::int64_t size;
    std::int64_t step;
    std::int64_t extent;
    std::int64_t sa;
    std::int64_t sb;
    std::int64_t so;
  };
  void run_level(std::size_t l, const float* a, const float* b, float* out,
                 std::int64_t* limit) const;
  void run_kernel(std::size_t l, const float* a, const float* b, float* out,
                  std::int64_t* limit) const;

  std::vector<Level> levels_;
  std::vector<std::int64_t> var_sizes_;
  Kernel kernel_ = Kernel::kStrided;
  std::size_t kernel_levels_ = 1;
};

}  // namespace sysgym::looptune
