#include "memtier/estimator.hpp"

#include <algorithm>
#include <cmath>

#include "base/error.hpp"

namespace sysgym::memtier {

std::vector<std::pair<std::uint32_t, std::uint32_t>> Estimator::page_id_ranges(
    const HbmRanges& ranges) const {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  const auto& pages = pair_.pages;
  for (const AddressRange& r : ranges.ranges()) {
    const auto a = std::lower_bound(pages.begin(), pages.end(), r.lo) - pages.begin();
    const auto b = std::lower_bound(pages.begin(), pages.end(), r.hi) - pages.begin();
    if (a < b) out.emplace_back(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b));
  }
  return out;
}

std::uint64_t Estimator::samples_in(
    std::size_t w, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& id_ranges) const {
  const auto* first = pair_.entry_page.data() + pair_.entry_offset[w];
  const auto* last = pair_.entry_page.data() + pair_.entry_offset[w + 1];
  if (first == last || id_ranges.empty()) return 0;
  const std::uint32_t* prefix = pair_.count_prefix.data();
  const std::size_t base = pair_.entry_offset[w];
  // First id range that ends after the window's smallest page id.
  auto range = std::upper_bound(id_ranges.begin(), id_ranges.end(), *first,
                                [](std::uint32_t id, const auto& r) { return id < r.second; });
  std::uint64_t total = 0;
  const auto* cursor = first;
  for (; range != id_ranges.end() && range->first <= *(last - 1); ++range) {
    const auto* lo = std::lower_bound(cursor, last, range->first);
    const auto* hi = std::lower_bound(lo, last, range->second);
    total += prefix[base + (hi - first)] - prefix[base + (lo - first)];
    cursor = hi;
  }
  return total;
}

Estimate Estimator::estimate(const HbmRanges& ranges, double hbm_factor) const {
  if (!(hbm_factor > 0.0) || !std::isfinite(hbm_factor)) {
    throw ConfigError("hbm factor must be a positive number, got " + std::to_string(hbm_factor));
  }
  const auto id_ranges = page_id_ranges(ranges);
  Estimate result;
  result.windows = pair_.window_count();
  result.ddr_ms = pair_.ddr_ms();
  result.hbm_ms = pair_.hbm_ms();
  // Savings against the all-DDR time: exact integer ticks for windows entirely in HBM (f = 1),
  // a double for the rest.
  std::int64_t exact_saving = 0;
  double partial_saving = 0.0;
  const bool unit_factor = hbm_factor == 1.0;
  for (std::size_t w = 0; w < result.windows; ++w) {
    const std::uint64_t n = pair_.window_samples(w);
    if (n == 0) {
      ++result.empty_windows;
      continue;
    }
    const std::uint64_t n_hbm = samples_in(w, id_ranges);
    result.samples += n;
    result.samples_in_hbm += n_hbm;
    if (n_hbm == 0) continue;
    const auto ddr = static_cast<std::int64_t>(pair_.ddr_ticks[w]);
    const auto hbm = static_cast<std::int64_t>(pair_.hbm_ticks[w]);
    if (unit_factor && n_hbm == n) {
      exact_saving += ddr - hbm;
    } else {
      const double fraction = static_cast<double>(n_hbm) / static_cast<double>(n);
      partial_saving += (static_cast<double>(ddr) - static_cast<double>(hbm) / hbm_factor) * fraction;
    }
  }
  const double exact_ticks =
      static_cast<double>(static_cast<std::int64_t>(pair_.ddr_total_ticks) - exact_saving);
  result.estimated_ms = (exact_ticks - partial_saving) / pair_.ticks_per_ms;
  return result;
}

double relative_error(double estimated_ms, double measured_ms) {
  if (!(measured_ms > 0.0)) {
    throw ConfigError("the measured run lasts " + std::to_string(measured_ms) +
                      " ms; a relative error needs a positive measured time");
  }
  return std::fabs(estimated_ms - measured_ms) / measured_ms;
}

}  // namespace sysgym::memtier
