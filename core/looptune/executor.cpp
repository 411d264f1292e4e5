#include "looptune/executor.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "base/rng.hpp"

namespace sysgym::looptune {
namespace {

// The micro-kernels. Unit strides are spelled out so the compiler vectorises those loops.

// o[j] += a[j * sa] * b[j * sb] for j < n.
void axpy(const float* a, std::int64_t sa, const float* b, std::int64_t sb, float* o,
          std::int64_t n) {
  if (sa == 0 && sb == 1) {
    const float x = *a;
    for (std::int64_t j = 0; j < n; ++j)
      o[j] += x * b[j];
  } else if (sa == 1 && sb == 0) {
    const float x = *b;
    for (std::int64_t j = 0; j < n; ++j)
      o[j] += a[j] * x;
  } else if (sa == 1 && sb == 1) {
    for (std::int64_t j = 0; j < n; ++j)
      o[j] += a[j] * b[j];
  } else {
    for (std::int64_t j = 0; j < n; ++j)
      o[j] += a[j * sa] * b[j * sb];
  }
}

// *o += sum of a[j * sa] * b[j * sb]; four partial sums when both are unit-stride.
void dot(const float* a, std::int64_t sa, const float* b, std::int64_t sb, float* o,
         std::int64_t n) {
  if (sa == 1 && sb == 1) {
    std::array<float, 4> s{};
    std::int64_t j = 0;
    for (; j + 4 <= n; j += 4) {
      for (std::size_t u = 0; u < 4; ++u)
        s[u] += a[j + static_cast<std::int64_t>(u)] * b[j + static_cast<std::int64_t>(u)];
    }
    float sum = (s[0] + s[1]) + (s[2] + s[3]);
    for (; j < n; ++j)
      sum += a[j] * b[j];
    *o += sum;
  } else {
    float sum = 0;
    for (std::int64_t j = 0; j < n; ++j)
      sum += a[j * sa] * b[j * sb];
    *o += sum;
  }
}

// The register block's inner kernel: R rows of C outputs each, in registers across the k steps
// of the reduction (C a compile-time width so the compiler keeps them in vector registers).
struct BlockArgs {
  const float* a;
  std::int64_t sa_row;
  std::int64_t sa_k;
  const float* b;
  std::int64_t sb_row;
  std::int64_t sb_k;
  float* out;
  std::int64_t so_row;
  std::int64_t k;
};

// One vector register of floats, in the GNU vector extension g++ and clang share: 256 bits
// natively (512 with AVX-512), 128 in WebAssembly. Written out because the compilers' own
// vectorisation of the block kept some widths' accumulators in memory (8 times slower).
#if defined(__AVX512F__)
constexpr int kLanes = 16;
#elif defined(__AVX__)
constexpr int kLanes = 8;
#else
constexpr int kLanes = 4;
#endif
// (A typedef in a class template: g++ 12 drops the attribute from an alias template.)
template <int L>
struct VecOf {
  typedef float type __attribute__((vector_size(L * sizeof(float))));
};
template <int L>
using Vec = typename VecOf<L>::type;
static_assert(sizeof(Vec<4>) == 4 * sizeof(float));

template <int L>
Vec<L> load(const float* p) {
  Vec<L> v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <int L>
void store(float* p, Vec<L> v) {
  std::memcpy(p, &v, sizeof v);
}

// R rows of V vectors of L outputs.
template <int R, int V, int L>
void block_vectors(const BlockArgs& x, std::int64_t column) {
  std::array<std::array<Vec<L>, V>, R> acc;
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < V; ++v)
      acc[r][v] = load<L>(x.out + r * x.so_row + column + std::int64_t{v} * L);
  }
  for (std::int64_t j = 0; j < x.k; ++j) {
    for (int r = 0; r < R; ++r) {
      const float s = x.a[r * x.sa_row + j * x.sa_k];
      const float* bj = x.b + r * x.sb_row + j * x.sb_k + column;
      for (int v = 0; v < V; ++v)
        acc[r][v] += s * load<L>(bj + std::int64_t{v} * L);
    }
  }
  for (int r = 0; r < R; ++r) {
    for (int v = 0; v < V; ++v)
      store<L>(x.out + r * x.so_row + column + std::int64_t{v} * L, acc[r][v]);
  }
}

// R rows of one output each (the columns left over after whole vectors).
template <int R>
void block_column(const BlockArgs& x, std::int64_t column) {
  std::array<float, R> acc;
  for (int r = 0; r < R; ++r)
    acc[r] = x.out[r * x.so_row + column];
  for (std::int64_t j = 0; j < x.k; ++j) {
    for (int r = 0; r < R; ++r)
      acc[r] += x.a[r * x.sa_row + j * x.sa_k] * x.b[r * x.sb_row + j * x.sb_k + column];
  }
  for (int r = 0; r < R; ++r)
    x.out[r * x.so_row + column] = acc[r];
}

// Columns in chunks of 4 or 2 whole vectors per row (up to 12 accumulators), then one vector,
// then narrower vectors (8 and 4 lanes), then one at a time.
template <int R>
void block_rows(const BlockArgs& x, std::int64_t n) {
  constexpr int kWide = R <= 3 ? 4 : 2;
  constexpr std::int64_t kChunk = std::int64_t{kWide} * kLanes;
  std::int64_t c = 0;
  for (; c + kChunk <= n; c += kChunk)
    block_vectors<R, kWide, kLanes>(x, c);
  for (; c + kLanes <= n; c += kLanes)
    block_vectors<R, 1, kLanes>(x, c);
  if constexpr (kLanes > 8) {
    for (; c + 8 <= n; c += 8)
      block_vectors<R, 1, 8>(x, c);
  }
  if constexpr (kLanes > 4) {
    for (; c + 4 <= n; c += 4)
      block_vectors<R, 1, 4>(x, c);
  }
  for (; c < n; ++c)
    block_column<R>(x, c);
}

void block(const BlockArgs& x, std::int64_t rows, std::int64_t n) {
  static_assert(kMaxBlockRows == 8);
  switch (rows) {
    case 1:
      return block_rows<1>(x, n);
    case 2:
      return block_rows<2>(x, n);
    case 3:
      return block_rows<3>(x, n);
    case 4:
      return block_rows<4>(x, n);
    case 5:
      return block_rows<5>(x, n);
    case 6:
      return block_rows<6>(x, n);
    case 7:
      return block_rows<7>(x, n);
    default:
      return block_rows<8>(x, n);
  }
}

void strided(const float* a, std::int64_t sa, const float* b, std::int64_t sb, float* o,
             std::int64_t so, std::int64_t n) {
  for (std::int64_t j = 0; j < n; ++j)
    o[j * so] += a[j * sa] * b[j * sb];
}

}  // namespace

Operands make_operands(const Problem& p, std::uint64_t seed) {
  Rng rng(seed);
  const auto fill = [&rng](std::int64_t n) {
    std::vector<float> v(static_cast<std::size_t>(n));
    for (float& x : v)
      x = static_cast<float>(static_cast<int>(rng.below(5)) - 2);
    return v;
  };
  Operands o{fill(p.a.elements), fill(p.b.elements), {}};
  o.out.assign(static_cast<std::size_t>(p.out.elements), 0.0f);
  return o;
}

void reference(const Problem& p, const float* a, const float* b, float* out) {
  const std::size_t n = p.vars.size();
  std::vector<std::int64_t> at(n, 0);
  while (true) {
    std::int64_t ia = 0;
    std::int64_t ib = 0;
    std::int64_t io = 0;
    for (std::size_t v = 0; v < n; ++v) {
      ia += at[v] * p.a.stride[v];
      ib += at[v] * p.b.stride[v];
      io += at[v] * p.out.stride[v];
    }
    out[io] += a[ia] * b[ib];
    std::size_t v = n;
    while (v-- > 0) {  // the last var fastest
      if (++at[v] < p.vars[v].size) break;
      at[v] = 0;
      if (v == 0) return;
    }
  }
}

const char* kernel_name(Kernel k) {
  switch (k) {
    case Kernel::kBlock:
      return "register block";
    case Kernel::kTile:
      return "register tile";
    case Kernel::kDot:
      return "dot";
    case Kernel::kAxpy:
      return "axpy";
    case Kernel::kStrided:
      return "strided";
  }
  return "?";
}

Executor::Executor(const LoopNest& nest, bool annotations) {
  const Problem& p = nest.problem();
  for (const Var& v : p.vars)
    var_sizes_.push_back(v.size);
  for (std::size_t i = 0; i < nest.size(); ++i) {
    levels_.push_back({nest.loop(i).var, nest.loop(i).size, nest.step(i), nest.extent(i),
                       nest.stride(p.a, i), nest.stride(p.b, i), nest.stride(p.out, i)});
  }
  kernel_ = pick_kernel(nest, annotations);
  kernel_levels_ = looptune::kernel_levels(kernel_);
}

std::size_t kernel_levels(Kernel kernel) {
  return kernel == Kernel::kBlock ? 3 : kernel == Kernel::kTile ? 2 : 1;
}

namespace {

// The loops above a tile walk rows of outputs that no two rows share, and read the outer
// operand once per row and step and the inner one unit-stride: a register block.
bool block_fits(const LoopNest& nest, bool annotations) {
  const Problem& p = nest.problem();
  const std::size_t q = nest.size() - 1;
  if (q < 2) return false;
  const std::size_t row = q - 2;
  const std::int64_t so_row = nest.stride(p.out, row);
  return nest.loop(row).var != nest.loop(q).var && so_row >= nest.extent(q) &&
         nest.extent(row) <= kMaxBlockRows && nest.stride(p.a, q) == 0 &&
         nest.stride(p.b, q) == 1 && (!annotations || nest.loop(row).unroll);
}

}  // namespace

Kernel pick_kernel(const LoopNest& nest, bool annotations) {
  const Access& out = nest.problem().out;
  const std::size_t q = nest.size() - 1;
  const std::int64_t so = nest.stride(out, q);
  if (q >= 1 && so == 1 && nest.extent(q) <= kMaxTile && nest.stride(out, q - 1) == 0 &&
      (!annotations || nest.loop(q - 1).unroll))
    return block_fits(nest, annotations) ? Kernel::kBlock : Kernel::kTile;
  if (annotations && !nest.loop(q).vectorize) return Kernel::kStrided;
  if (so == 0) return Kernel::kDot;
  if (so == 1) return Kernel::kAxpy;
  return Kernel::kStrided;
}

void Executor::run(const float* a, const float* b, float* out) const {
  std::vector<std::int64_t> limit = var_sizes_;
  run_level(0, a, b, out, limit.data());
}

void Executor::run_level(std::size_t l, const float* a, const float* b, float* out,
                         std::int64_t* limit) const {
  if (l + kernel_levels_ == levels_.size()) {
    run_kernel(l, a, b, out, limit);
    return;
  }
  const Level& L = levels_[l];
  const std::int64_t avail = std::min(limit[L.var], L.extent);
  const std::int64_t full = std::min(L.size, avail / L.step);
  const std::int64_t saved = limit[L.var];
  limit[L.var] = L.step;
  for (std::int64_t i = 0; i < full; ++i)
    run_level(l + 1, a + i * L.sa, b + i * L.sb, out + i * L.so, limit);
  // The tail: a partial step, the loops inside covering only what is left.
  if (const std::int64_t rest = avail - full * L.step; rest > 0) {
    limit[L.var] = rest;
    run_level(l + 1, a + full * L.sa, b + full * L.sb, out + full * L.so, limit);
  }
  limit[L.var] = saved;
}

void Executor::run_kernel(std::size_t l, const float* a, const float* b, float* out,
                          std::int64_t* limit) const {
  const Level& q = levels_.back();
  const std::int64_t n = std::min(limit[q.var], q.extent);
  if (kernel_ == Kernel::kBlock) {
    const Level& row = levels_[l];
    const Level& k = levels_[l + 1];
    block({a, row.sa, k.sa, b, row.sb, k.sb, out, row.so, std::min(limit[k.var], k.extent)},
          std::min(limit[row.var], row.extent), n);
  } else if (kernel_ == Kernel::kTile) {
    const Level& p = levels_[l];
    const std::int64_t m = std::min(limit[p.var], p.extent);
    std::array<float, kMaxTile> acc{};
    std::copy(out, out + n, acc.begin());
    for (std::int64_t i = 0; i < m; ++i)
      axpy(a + i * p.sa, q.sa, b + i * p.sb, q.sb, acc.data(), n);
    std::copy(acc.begin(), acc.begin() + n, out);
  } else if (kernel_ == Kernel::kDot) {
    dot(a, q.sa, b, q.sb, out, n);
  } else if (kernel_ == Kernel::kAxpy) {
    axpy(a, q.sa, b, q.sb, out, n);
  } else {
    strided(a, q.sa, b, q.sb, out, q.so, n);
  }
}

}  // namespace sysgym::looptune
