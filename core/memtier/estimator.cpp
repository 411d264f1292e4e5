#include "memtier/estimator.hpp"

#include <algorithm>
#include <cmath>

#include "base/error.hpp"
#include "base/gallop.hpp"

namespace sysgym::memtier {
namespace {

// Cost model for a window: a pass over its entries with a page mask costs ~1 ns per entry, two
// searches per overlapping range ~48 ns per range. The mask is built (O(pages)) only for range
// sets of at least kMaskMinRanges ranges.
constexpr std::size_t kMaskPassFactor = 48;
constexpr std::size_t kMaskMinRanges = 4;

}  // namespace

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
    std::size_t w, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& id_ranges,
    const std::uint8_t* in_hbm) const {
  const std::size_t base = pair_.entry_offset[w];
  const std::uint32_t* first = pair_.entry_page.data() + base;
  const std::uint32_t* last = pair_.entry_page.data() + pair_.entry_offset[w + 1];
  if (first == last || id_ranges.empty()) return 0;
  const std::uint32_t* prefix = pair_.count_prefix.data() + base;
  // The id ranges that overlap the window's pages.
  auto by_end = [](std::uint32_t id, const auto& r) { return id < r.second; };
  auto by_start = [](std::uint32_t id, const auto& r) { return id < r.first; };
  auto range = std::upper_bound(id_ranges.begin(), id_ranges.end(), *first, by_end);
  const auto ranges_end = std::upper_bound(range, id_ranges.end(), *(last - 1), by_start);
  const auto overlapping = static_cast<std::size_t>(ranges_end - range);
  std::uint64_t total = 0;
  if (in_hbm != nullptr && overlapping * kMaskPassFactor > static_cast<std::size_t>(last - first)) {
    // Many ranges: one branch-free pass over the entries with the page mask.
    for (const std::uint32_t* e = first; e != last; ++e) {
      const std::uint32_t count = prefix[e - first + 1] - prefix[e - first];
      total += count & (0u - static_cast<std::uint32_t>(in_hbm[*e]));
    }
    return total;
  }
  // Few ranges: two searches per range over the sorted entries.
  const std::uint32_t* cursor = first;
  for (; range != ranges_end; ++range) {
    const std::uint32_t* lo = gallop_lower_bound(cursor, last, range->first);
    const std::uint32_t* hi = gallop_lower_bound(lo, last, range->second);
    total += prefix[hi - first] - prefix[lo - first];
    cursor = hi;
  }
  return total;
}

Estimate Estimator::estimate(const HbmRanges& ranges, double hbm_factor) const {
  check_number(hbm_factor, "hbm_factor", kHbmFactorRange);
  const auto id_ranges = page_id_ranges(ranges);
  // With many ranges, a mask over page ids (1 = in HBM) serves windows that overlap many.
  std::vector<std::uint8_t> in_hbm;
  if (id_ranges.size() >= kMaskMinRanges) {
    in_hbm.assign(pair_.pages.size(), 0);
    for (const auto& [a, b] : id_ranges)
      std::fill(in_hbm.begin() + a, in_hbm.begin() + b, 1);
  }
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
    const std::uint64_t n_hbm = samples_in(w, id_ranges, in_hbm.empty() ? nullptr : in_hbm.data());
    result.samples += n;
    result.samples_in_hbm += n_hbm;
    if (n_hbm == 0) continue;
    const auto ddr = static_cast<std::int64_t>(pair_.ddr_ticks[w]);
    const auto hbm = static_cast<std::int64_t>(pair_.hbm_ticks[w]);
    if (unit_factor && n_hbm == n) {
      exact_saving += ddr - hbm;
    } else {
      const double fraction = static_cast<double>(n_hbm) / static_cast<double>(n);
      partial_saving +=
          (static_cast<double>(ddr) - static_cast<double>(hbm) / hbm_factor) * fraction;
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
