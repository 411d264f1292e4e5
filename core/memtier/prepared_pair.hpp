// A trace pair reduced to what estimation and the env need: the windows' DDR and HBM durations
// and, per window, how many DDR samples fell on each page. Built once (preprocess), then any
// number of what-if estimates run in O(windows x ranges), independent of the sample count.
//
// Page ids index `pages` (sorted page start addresses), so an address range maps to one
// contiguous id interval. Window w's entries are [entry_offset[w], entry_offset[w+1]) with
// strictly increasing page ids; entry k counts count_prefix[k+1] - count_prefix[k] samples.
// The three large columns may view a mapped file (see Column).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/column.hpp"
#include "base/progress.hpp"
#include "memtier/traces/trace.hpp"
#include "memtier/windows.hpp"

namespace sysgym::memtier {

inline constexpr std::uint8_t kGapWindow = 1;

struct PreparedPair {
  // Provenance.
  WindowOptions options;  // window_len holds the effective length
  std::string ddr_source;
  std::string hbm_source;
  TimeBase time_base = TimeBase::kCycles;
  double ticks_per_ms = 0;
  std::uint64_t ddr_samples = 0;
  std::uint64_t hbm_samples = 0;

  // One value per window.
  std::vector<std::uint64_t> ddr_ticks;
  std::vector<std::uint64_t> hbm_ticks;
  std::vector<std::uint32_t> phase;
  std::vector<std::uint8_t> flags;          // kGapWindow
  std::vector<std::uint64_t> entry_offset;  // windows + 1 values

  Column<std::uint64_t> pages;  // sorted, unique, page-aligned
  Column<std::uint32_t> entry_page;
  Column<std::uint32_t> count_prefix;  // entries + 1: samples counted before entry k

  // Derived by finalize().
  std::uint64_t ddr_total_ticks = 0;
  std::uint64_t hbm_total_ticks = 0;

  std::size_t window_count() const { return ddr_ticks.size(); }
  std::uint32_t entry_count(std::size_t k) const { return count_prefix[k + 1] - count_prefix[k]; }
  std::uint64_t window_samples(std::size_t w) const {
    return count_prefix[entry_offset[w + 1]] - count_prefix[entry_offset[w]];
  }
  // What one of window w's samples saves in ms when its page is in HBM (negative where HBM is
  // slower; 0 for a window without samples): the estimator is linear in the samples in HBM.
  double saving_per_sample_ms(std::size_t w) const {
    const std::uint64_t n = window_samples(w);
    if (n == 0) return 0.0;
    return (static_cast<double>(ddr_ticks[w]) - static_cast<double>(hbm_ticks[w])) / ticks_per_ms /
           static_cast<double>(n);
  }
  // Window w's run time in DDR, in ms.
  double window_ddr_ms(std::size_t w) const {
    return static_cast<double>(ddr_ticks[w]) / ticks_per_ms;
  }
  double ddr_ms() const { return static_cast<double>(ddr_total_ticks) / ticks_per_ms; }
  double hbm_ms() const { return static_cast<double>(hbm_total_ticks) / ticks_per_ms; }
  std::uint64_t page_bytes() const { return std::uint64_t{1} << options.page_size_bits; }

  // Checks every column for consistency and computes the totals, allocating nothing. Throws
  // TraceFormatError naming `source` (a file being loaded, or "prepared pair").
  void finalize(const std::string& source);
};

// The first `limit` distinct pages sampled from window `begin` on, in the order they were first
// touched: what an allocator that fills HBM first gives.
std::vector<std::uint32_t> first_touched_pages(const PreparedPair& pair, std::size_t begin,
                                               std::size_t limit);

// Windows the pair and counts pages per window. Throws ConfigError / TraceFormatError.
PreparedPair prepare_pair(const TracePair& pair, const WindowOptions& options,
                          const ProgressFn& progress = {});

}  // namespace sysgym::memtier
