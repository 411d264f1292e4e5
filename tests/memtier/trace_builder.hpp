// Hand-built traces for the windowing and estimator tests. Timestamps are given in ms and
// stored as cycles at kCyclesPerMs, so expected durations read directly in ms.
#pragma once

#include <string>
#include <vector>

#include "memtier/traces/trace.hpp"
#include "memtier/windows.hpp"

namespace sysgym::memtier::testing {

inline constexpr double kCyclesPerMs = 1000.0;

inline Trace make_trace(std::string name, const std::vector<double>& ms,
                        std::vector<std::uint32_t> phase = {},
                        std::vector<std::uint64_t> vaddr = {},
                        std::vector<std::uint64_t> instrs = {}) {
  Trace t;
  t.source = std::move(name);
  for (double m : ms)
    t.timestamp.push_back(static_cast<std::uint64_t>(m * kCyclesPerMs));
  t.phase = phase.empty() ? std::vector<std::uint32_t>(ms.size(), 0) : std::move(phase);
  if (vaddr.empty()) {
    for (std::size_t i = 0; i < ms.size(); ++i)
      vaddr.push_back(0x100000 + 0x2000 * i);
  }
  t.vaddr = std::move(vaddr);
  t.instrs = std::move(instrs);
  return t;
}

inline WindowOptions memai_options(std::optional<double> window_len,
                                   WindowUnit unit = WindowUnit::kMs) {
  WindowOptions o;
  o.mode = WindowMode::kMemai;
  o.unit = unit;
  o.window_len = window_len;
  o.cpu_cycles_per_ms = kCyclesPerMs;
  return o;
}

// (ddr ms, hbm ms, first DDR sample, end DDR sample, gap) of each window.
struct Expected {
  double ddr_ms, hbm_ms;
  std::uint64_t begin, end;
  bool gap;
};

inline std::vector<Expected> summarize(const WindowSet& set) {
  std::vector<Expected> out;
  for (const Window& w : set.windows) {
    out.push_back({static_cast<double>(w.ddr_ticks) / set.ticks_per_ms,
                   static_cast<double>(w.hbm_ticks) / set.ticks_per_ms, w.ddr_begin, w.ddr_end,
                   w.gap});
  }
  return out;
}

inline bool operator==(const Expected& a, const Expected& b) {
  return a.ddr_ms == b.ddr_ms && a.hbm_ms == b.hbm_ms && a.begin == b.begin && a.end == b.end &&
         a.gap == b.gap;
}

inline std::ostream& operator<<(std::ostream& out, const Expected& e) {
  return out << "{ddr " << e.ddr_ms << " ms, hbm " << e.hbm_ms << " ms, [" << e.begin << ", "
             << e.end << ")" << (e.gap ? ", gap" : "") << "}";
}

}  // namespace sysgym::memtier::testing
