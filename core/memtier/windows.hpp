// Cutting a trace pair into windows (spec memtier.md section 2).
//
// Two modes:
//  - memai (MemAI-compatible): per phase, each run is cut into n equal slices of its own span in
//    the unit of comparison (ms, instrs or accesses); slice i of DDR pairs with slice i of HBM.
//    Slice bounds are inclusive at both ends, so a sample on a boundary belongs to both
//    neighbours. Windows whose slices are both empty are skipped; the time they covered becomes
//    a "gap" window before the next non-empty one. Estimates match MemAI's to rounding.
//  - aligned: windows are fixed instruction intervals of window_len instructions inside each
//    phase, so slice i is the same work in both runs. An interval without DDR samples is merged
//    into the next one. Needs Instrs in both traces. Idle periods cannot land in different
//    windows of the two runs, so no window shows an HBM time above its DDR time by artefact.
//
// Durations are integer ticks of the trace's time base and tile each run exactly: the windows'
// DDR ticks sum to the DDR run's last minus first timestamp (same for HBM).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/numbers.hpp"
#include "memtier/traces/trace.hpp"

namespace sysgym::memtier {

enum class WindowMode { kMemai, kAligned };
enum class WindowUnit { kMs, kInstrs, kAccesses };

struct WindowOptions {
  WindowMode mode = WindowMode::kMemai;
  WindowUnit unit = WindowUnit::kMs;  // memai mode; aligned mode always counts instructions
  // In the unit of comparison (aligned: instructions). Default: memai, (last - first unit value
  // of the DDR trace) / number of phases, at least 1; aligned, DDR instruction span / 1000.
  std::optional<double> window_len;
  double cpu_cycles_per_ms = 1.4e6;  // MemAI's default, a 1.4 GHz KNL
  int page_size_bits = 13;           // MemAI's default, 8 KiB pages
};

inline constexpr int kMinPageSizeBits = 6;
inline constexpr int kMaxPageSizeBits = 30;
inline constexpr std::size_t kMaxWindows = 50'000'000;
// Accepted values of the config keys and CLI flags (both ends included).
inline constexpr NumberRange kCpuCyclesPerMsRange{1.0, 1e12};
inline constexpr NumberRange kWindowLenRange{1e-9, 1e18};
inline constexpr IntegerRange kPageSizeBitsRange{kMinPageSizeBits, kMaxPageSizeBits};

// Throws ConfigError for values out of range (page size, cycles per ms, window length).
void validate_window_options(const WindowOptions& options);

WindowMode parse_window_mode(std::string_view name);  // "memai" | "aligned"; UnknownNameError
WindowUnit parse_window_unit(std::string_view name);  // "ms" | "instrs" | "accesses"
const char* window_mode_name(WindowMode mode);
const char* window_unit_name(WindowUnit unit);

struct Window {
  std::uint64_t ddr_ticks = 0;  // duration in the DDR run
  std::uint64_t hbm_ticks = 0;  // duration in the HBM run
  std::uint64_t ddr_begin = 0;  // the window's DDR samples are [ddr_begin, ddr_end)
  std::uint64_t ddr_end = 0;
  std::uint32_t phase = 0;
  bool gap = false;  // memai rule 4: time between non-empty windows, no samples
  bool empty() const { return ddr_begin == ddr_end; }
};

struct WindowSet {
  std::vector<Window> windows;
  double window_len = 0;    // effective length, in the unit of comparison
  double ticks_per_ms = 0;  // converts window ticks to milliseconds
};

// Throws ConfigError (bad options, a unit the traces cannot provide, too many windows) or
// TraceFormatError (the pair fails validate_pair).
WindowSet make_windows(const TracePair& pair, const WindowOptions& options);

// The two modes; make_windows validates and dispatches.
WindowSet make_memai_windows(const TracePair& pair, const WindowOptions& options);
WindowSet make_aligned_windows(const TracePair& pair, const WindowOptions& options);

// Throws ConfigError "<needed_by> needs an Instrs column, and <file> has none (<instead>)"
// unless both traces carry instruction counts.
void require_instrs(const TracePair& pair, const std::string& needed_by,
                    const std::string& instead);

// [begin, end) sample ranges of each phase of `trace`, in trace order.
struct PhaseRange {
  std::uint32_t phase;
  std::size_t begin;
  std::size_t end;
};
std::vector<PhaseRange> phase_ranges(const Trace& trace);

}  // namespace sysgym::memtier
