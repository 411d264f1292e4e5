// Deterministic math: functions built from IEEE-754 +, -, *, / only, which are correctly rounded
// everywhere, so native and WebAssembly builds produce bit-identical results. libm functions
// (std::log, std::exp ...) differ between glibc and Emscripten's musl in the last bits and must
// not reach observations or rewards. Core is compiled with -ffp-contract=off so no FMA is fused.
#pragma once

#include <cmath>
#include <cstdint>

namespace sysgym {
namespace detail {

// atanh(t) for t = (m - 1) / (m + 1), |t| <= 1/3, by its odd series up to t^(limit - 2): half
// of log(m), fast to converge.
inline double atanh_series(double m, int limit) {
  const double t = (m - 1.0) / (m + 1.0);
  const double t2 = t * t;
  double term = t;
  double sum = 0.0;
  for (int k = 1; k < limit; k += 2) {
    sum += term / k;
    term *= t2;
  }
  return sum;
}

}  // namespace detail

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
  constexpr double kInvLn2 = 1.4426950408889634073599246810019;
  return static_cast<double>(e) + 2.0 * detail::atanh_series(m, 40) * kInvLn2;
}

// The natural logarithm of x > 0, accurate to ~1e-15 relative (frexp is exact).
inline double det_log(double x) {
  int e = 0;
  const double m = std::frexp(x, &e);  // x = m * 2^e, m in [0.5, 1)
  constexpr double kLn2 = 0.69314718055994530941723212145818;
  return static_cast<double>(e) * kLn2 + 2.0 * detail::atanh_series(m, 60);
}

// e^x for |x| <= 700, accurate to ~1e-15 relative: e^r by its series for r = x / 2^8, then
// squared 8 times.
inline double det_exp(double x) {
  if (x < -700) return 0;
  const double r = x / 256.0;  // exact
  double term = 1.0;
  double sum = 1.0;
  for (int k = 1; k < 20; ++k) {
    term *= r / k;
    sum += term;
  }
  for (int k = 0; k < 8; ++k)
    sum *= sum;
  return sum;
}

}  // namespace sysgym
