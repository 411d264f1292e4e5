// The differential estimator (spec memtier.md section 3).
//
// For window w with DDR duration t_ddr, HBM duration t_hbm, n DDR samples of which n_hbm fall
// on pages whose start lies in an HBM range:
//     T_w = (t_ddr * (n - n_hbm) + t_hbm * n_hbm / f) / n      (f: hbm factor, default 1)
//     T_w = t_ddr                                                (window without DDR samples)
// and the estimate is the sum of T_w. With nothing in HBM it is exactly the DDR run's time;
// with everything in HBM (f = 1, no sample-less window) exactly the HBM run's time. Exactness
// comes from summing in integer ticks where every window is all-DDR or all-HBM and converting
// to milliseconds once; the remaining partial windows are summed in window order, so the result
// is bit-identical in every build.
#pragma once

#include <cstdint>
#include <vector>

#include "base/numbers.hpp"
#include "memtier/hbm_ranges.hpp"
#include "memtier/prepared_pair.hpp"

namespace sysgym::memtier {

// How much faster HBM is than the HBM run shows (1: as measured).
inline constexpr NumberRange kHbmFactorRange{1e-6, 1e6};

struct Estimate {
  double estimated_ms = 0;
  double ddr_ms = 0;  // the DDR run's time
  double hbm_ms = 0;  // the HBM run's time
  std::size_t windows = 0;
  std::size_t empty_windows = 0;  // windows without DDR samples (cost their DDR time)
  std::uint64_t samples_in_hbm = 0;
  std::uint64_t samples = 0;
};

class Estimator {
 public:
  // Keeps a reference: `pair` must outlive the estimator.
  explicit Estimator(const PreparedPair& pair) : pair_(pair) {}

  // Throws ConfigError for a hbm_factor outside kHbmFactorRange.
  Estimate estimate(const HbmRanges& ranges, double hbm_factor = 1.0) const;

  // Samples of window w whose page id lies in one of `id_ranges` (sorted, disjoint [a, b)).
  // `in_hbm` (optional): one byte per page id, 1 inside the ranges.
  std::uint64_t samples_in(std::size_t w,
                           const std::vector<std::pair<std::uint32_t, std::uint32_t>>& id_ranges,
                           const std::uint8_t* in_hbm = nullptr) const;
  // Address ranges as page-id intervals of the pair's page table.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> page_id_ranges(
      const HbmRanges& ranges) const;

 private:
  const PreparedPair& pair_;
};

// |estimated - measured| / measured. Throws ConfigError when measured_ms is not positive.
double relative_error(double estimated_ms, double measured_ms);

}  // namespace sysgym::memtier
