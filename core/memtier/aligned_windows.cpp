// The instruction-aligned window mode (see windows.hpp).
#include <cmath>

#include "base/error.hpp"
#include "memtier/windows.hpp"

namespace sysgym::memtier {
namespace {

constexpr double kDefaultAlignedWindows = 1000.0;

// Timestamp at which `trace` (within [begin, end)) first reached instruction count `cut`, or its
// last timestamp in the range when it never did. `cursor` only moves forward.
std::uint64_t time_at_instruction(const Trace& trace, std::size_t& cursor, std::size_t end,
                                  std::uint64_t cut) {
  while (cursor < end && trace.instrs[cursor] < cut)
    ++cursor;
  return cursor < end ? trace.timestamp[cursor] : trace.timestamp[end - 1];
}

}  // namespace

WindowSet make_aligned_windows(const TracePair& pair, const WindowOptions& options) {
  const Trace& ddr = pair.ddr;
  const Trace& hbm = pair.hbm;
  require_instrs(pair, "window mode 'aligned'", "use mode 'memai'");
  WindowSet set;
  set.ticks_per_ms = ticks_per_ms(ddr.time_base, options.cpu_cycles_per_ms);
  const double span = static_cast<double>(ddr.instrs.back() - ddr.instrs.front());
  set.window_len =
      std::floor(options.window_len.value_or(std::max(1.0, span / kDefaultAlignedWindows)));
  if (set.window_len < 1.0) {
    throw ConfigError("window length must be at least 1 instruction in mode 'aligned', got " +
                      std::to_string(*options.window_len));
  }
  const auto length = static_cast<std::uint64_t>(set.window_len);
  if (!(span / set.window_len <= static_cast<double>(kMaxWindows))) {  // NaN too
    throw ConfigError("window length " + std::to_string(length) + " instructions gives more than " +
                      std::to_string(kMaxWindows) + " windows; choose a larger window length");
  }

  const auto ddr_phases = phase_ranges(ddr);
  const auto hbm_phases = phase_ranges(hbm);
  std::uint64_t ddr_last_end = ddr.timestamp.front();
  std::uint64_t hbm_last_end = hbm.timestamp.front();
  for (std::size_t p = 0; p < ddr_phases.size(); ++p) {
    const PhaseRange& d = ddr_phases[p];
    const PhaseRange& h = hbm_phases[p];  // same phase sets: validated by make_windows
    const std::uint64_t origin = std::min(ddr.instrs[d.begin], hbm.instrs[h.begin]);
    std::size_t hbm_cursor = h.begin;
    std::size_t i = d.begin;
    while (i < d.end) {
      // The DDR samples of this window: every sample in the same length-sized instruction
      // interval; empty intervals are skipped, which merges them into the next window.
      const std::uint64_t k = (ddr.instrs[i] - origin) / length;
      std::size_t j = i;
      while (j < d.end && (ddr.instrs[j] - origin) / length == k)
        ++j;
      const bool last = j == d.end;
      std::uint64_t ddr_end = ddr.timestamp[d.end - 1];
      std::uint64_t hbm_end = hbm.timestamp[h.end - 1];
      if (!last) {
        // The boundary is the work point of the next window's first DDR sample: the DDR run
        // reached it at that sample, the HBM run at its first sample that got as far.
        ddr_end = ddr.timestamp[j];
        hbm_end = time_at_instruction(hbm, hbm_cursor, h.end, ddr.instrs[j]);
      }
      set.windows.push_back({ddr_end - ddr_last_end, hbm_end - hbm_last_end, i, j, d.phase, false});
      ddr_last_end = ddr_end;
      hbm_last_end = hbm_end;
      i = j;
    }
  }
  return set;
}

}  // namespace sysgym::memtier
