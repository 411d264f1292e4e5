#include "base/rank_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace sysgym {

std::vector<double> ranks(std::span<const double> values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t i, std::size_t j) { return values[i] < values[j]; });
  std::vector<double> r(values.size());
  for (std::size_t start = 0; start < order.size();) {
    std::size_t end = start + 1;
    while (end < order.size() && values[order[end]] == values[order[start]])
      ++end;
    const double mean = 0.5 * static_cast<double>(start + end - 1);
    for (std::size_t k = start; k < end; ++k)
      r[order[k]] = mean;
    start = end;
  }
  return r;
}

double spearman(std::span<const double> x, std::span<const double> y) {
  if (x.size() != y.size()) throw std::invalid_argument("spearman: series of different lengths");
  if (x.size() < 2) return 0;
  const std::vector<double> rx = ranks(x);
  const std::vector<double> ry = ranks(y);
  const double mean = 0.5 * static_cast<double>(x.size() - 1);
  double sxy = 0;
  double sxx = 0;
  double syy = 0;
  for (std::size_t i = 0; i < rx.size(); ++i) {
    sxy += (rx[i] - mean) * (ry[i] - mean);
    sxx += (rx[i] - mean) * (rx[i] - mean);
    syy += (ry[i] - mean) * (ry[i] - mean);
  }
  return sxx > 0 && syy > 0 ? sxy / std::sqrt(sxx * syy) : 0;
}

PairOrder pair_order(std::span<const double> model, std::span<const double> measured, double gap) {
  if (model.size() != measured.size())
    throw std::invalid_argument("pair_order: series of different lengths");
  double apart = 0;
  double ordered = 0;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    for (std::size_t j = i + 1; j < measured.size(); ++j) {
      const double smaller = std::min(measured[i], measured[j]);
      if (std::abs(measured[i] - measured[j]) <= gap * smaller) continue;
      apart += 1;
      const double d = (model[i] - model[j]) * (measured[i] - measured[j]);
      ordered += d > 0 ? 1.0 : d == 0 ? 0.5 : 0.0;
    }
  }
  const double n = static_cast<double>(measured.size());
  const double pairs = n * (n - 1) / 2;
  if (apart == 0) return {};
  return {ordered / apart, apart / pairs};
}

double geometric_mean(std::span<const double> values) {
  if (values.empty()) return 1;
  double log_sum = 0;
  for (double v : values)
    log_sum += std::log(v);
  return std::exp(log_sum / static_cast<double>(values.size()));
}

}  // namespace sysgym
