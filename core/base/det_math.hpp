// Deterministic math: functions built from IEEE-754 +, -, *, / only, which are correctly rounded
// everywhere, so native and WebAssembly builds produce bit-identical results. libm functions
// (std::log, std::exp ...) differ between glibc and Emscripten's musl in the last bits and must
// not reach observations or rewards. Core is compiled with -ffp-contract=off so no FMA is fused.
#pragma once

#include <cstdint>

namespace sysgym {

// log2(1 + n) for a count n, accurate to ~1e-12.
inline double log2_1p_count(std::uint64_t n) {
  // 1 + n = m * 2^e with m in [1, 2): e from the bit width, m by exact power-of-two scaling.
  const std::uint64_t x = n + 1;
  int e = 63;
  while ((x >> e) == 0)
    --e;
  double m = static_cast<double>(x);
  for (int k = 0; k < e; ++k)
    m *= 0.5;  // exact
  // log(m) = 2 atanh(t), t = (m - 1) / (m + 1) in [0, 1/3): the series converges fast.
  const double t = (m - 1.0) / (m + 1.0);
  const double t2 = t * t;
  double term = t;
  double sum = 0.0;
  for (int k = 1; k < 40; k += 2) {
    sum += term / k;
    term *= t2;
  }
  constexpr double kInvLn2 = 1.4426950408889634073599246810019;
  return static_cast<double>(e) + 2.0 * sum * kInvLn2;
}

}  // namespace sysgym
