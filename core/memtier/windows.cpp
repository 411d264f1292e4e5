#include "memtier/windows.hpp"

#include <cmath>
#include <limits>

#include "base/error.hpp"
#include "base/names.hpp"

namespace sysgym::memtier {
namespace {

// Value of sample i in the unit of comparison.
class UnitValues {
 public:
  UnitValues(const Trace& trace, WindowUnit unit, double ticks_per_ms)
      : trace_(trace), unit_(unit), ticks_per_ms_(ticks_per_ms) {}
  double operator()(std::size_t i) const {
    switch (unit_) {
      case WindowUnit::kMs:
        return static_cast<double>(trace_.timestamp[i]) / ticks_per_ms_;
      case WindowUnit::kInstrs:
        return static_cast<double>(trace_.instrs[i]);
      case WindowUnit::kAccesses:
        return static_cast<double>(i);
    }
    return 0.0;
  }

 private:
  const Trace& trace_;
  WindowUnit unit_;
  double ticks_per_ms_;
};

struct Slice {
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Cuts one run's part of a phase into n slices of equal span, both ends inclusive.
class Slicer {
 public:
  Slicer(const UnitValues& value, std::size_t begin, std::size_t end, std::uint64_t n)
      : value_(value), begin_(begin), end_(end), n_(n), lower_(begin), upper_(begin) {
    if (begin < end) {
      first_ = value(begin);
      length_ = (value(end - 1) - first_) / static_cast<double>(n);
    }
  }
  Slice next(std::uint64_t i) {
    if (begin_ == end_) return {};
    const double lo = first_ + static_cast<double>(i) * length_;
    const bool last = i + 1 == n_;
    const double hi = first_ + static_cast<double>(i + 1) * length_;
    while (lower_ < end_ && value_(lower_) < lo)
      ++lower_;
    if (upper_ < lower_) upper_ = lower_;
    while (upper_ < end_ && (last || value_(upper_) <= hi))
      ++upper_;
    return {lower_, upper_};
  }

 private:
  const UnitValues& value_;
  std::size_t begin_, end_;
  std::uint64_t n_;
  std::size_t lower_, upper_;
  double first_ = 0.0;
  double length_ = 0.0;
};

double span_of(const UnitValues& value, const PhaseRange* range) {
  if (range == nullptr || range->begin == range->end) return 0.0;
  return value(range->end - 1) - value(range->begin);
}

const PhaseRange* find_phase(const std::vector<PhaseRange>& ranges, std::uint32_t phase) {
  for (const PhaseRange& r : ranges) {
    if (r.phase == phase) return &r;
  }
  return nullptr;
}

}  // namespace

std::vector<PhaseRange> phase_ranges(const Trace& trace) {
  std::vector<PhaseRange> out;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (out.empty() || out.back().phase != trace.phase[i]) out.push_back({trace.phase[i], i, i});
    out.back().end = i + 1;
  }
  return out;
}

void require_instrs(const TracePair& pair, const std::string& needed_by,
                    const std::string& instead) {
  const Trace& lacking = pair.ddr.has_instrs() ? pair.hbm : pair.ddr;
  if (!lacking.has_instrs()) {
    throw ConfigError(needed_by + " needs an Instrs column, and " + lacking.source + " has none (" +
                      instead + ")");
  }
}

void validate_window_options(const WindowOptions& options) {
  if (options.page_size_bits < kMinPageSizeBits || options.page_size_bits > kMaxPageSizeBits) {
    throw ConfigError("page size " + std::to_string(options.page_size_bits) +
                      " is out of range: give log2 of the page size in bytes, from " +
                      std::to_string(kMinPageSizeBits) + " (64 B) to " +
                      std::to_string(kMaxPageSizeBits) + " (1 GiB); MemAI uses 13 (8 KiB)");
  }
  check_number(options.cpu_cycles_per_ms, "cpu_cycles_per_ms", kCpuCyclesPerMsRange);
  if (options.window_len) check_number(*options.window_len, "window_len", kWindowLenRange);
}

WindowMode parse_window_mode(std::string_view name) {
  if (name == "memai") return WindowMode::kMemai;
  if (name == "aligned") return WindowMode::kAligned;
  throw UnknownNameError(unknown_name_message("window mode", name, {"memai", "aligned"}));
}

WindowUnit parse_window_unit(std::string_view name) {
  if (name == "ms") return WindowUnit::kMs;
  if (name == "instrs") return WindowUnit::kInstrs;
  if (name == "accesses") return WindowUnit::kAccesses;
  throw UnknownNameError(unknown_name_message("unit", name, {"ms", "instrs", "accesses"}));
}

const char* window_mode_name(WindowMode mode) {
  return mode == WindowMode::kMemai ? "memai" : "aligned";
}

const char* window_unit_name(WindowUnit unit) {
  switch (unit) {
    case WindowUnit::kMs:
      return "ms";
    case WindowUnit::kInstrs:
      return "instrs";
    case WindowUnit::kAccesses:
      return "accesses";
  }
  return "?";
}

WindowSet make_windows(const TracePair& pair, const WindowOptions& options) {
  validate_window_options(options);
  validate_pair(pair);
  return options.mode == WindowMode::kMemai ? make_memai_windows(pair, options)
                                            : make_aligned_windows(pair, options);
}

WindowSet make_memai_windows(const TracePair& pair, const WindowOptions& options) {
  const Trace& ddr = pair.ddr;
  const Trace& hbm = pair.hbm;
  if (options.unit == WindowUnit::kInstrs) {
    require_instrs(pair, "unit 'instrs'", "use unit 'ms' or 'accesses'");
  }
  WindowSet set;
  set.ticks_per_ms = ticks_per_ms(ddr.time_base, options.cpu_cycles_per_ms);
  const UnitValues ddr_value(ddr, options.unit, set.ticks_per_ms);
  const UnitValues hbm_value(hbm, options.unit, set.ticks_per_ms);

  const auto ddr_phases = phase_ranges(ddr);
  const auto hbm_phases = phase_ranges(hbm);
  const double phase_count = static_cast<double>(ddr_phases.back().phase) -
                             static_cast<double>(ddr_phases.front().phase) + 1.0;
  set.window_len = options.window_len.value_or(
      std::max(1.0, (ddr_value(ddr.size() - 1) - ddr_value(0)) / phase_count));

  std::uint64_t ddr_last_end = ddr.timestamp.front();
  std::uint64_t hbm_last_end = hbm.timestamp.front();
  bool previous_empty = false;
  std::uint32_t previous_phase = ddr_phases.front().phase;
  for (const PhaseRange& ddr_range : ddr_phases) {
    // A phase number between two present phases has no samples: one skipped, empty window.
    if (ddr_range.phase > previous_phase + 1) previous_empty = true;
    previous_phase = ddr_range.phase;
    const PhaseRange* hbm_range = find_phase(hbm_phases, ddr_range.phase);
    const double t_max = std::max(span_of(ddr_value, &ddr_range), span_of(hbm_value, hbm_range));
    const double count = t_max < set.window_len ? 1.0 : std::floor(t_max / set.window_len);
    // Negated so that a NaN count is refused too, before it is cast.
    if (!(count + static_cast<double>(set.windows.size()) <= static_cast<double>(kMaxWindows))) {
      throw ConfigError("window length " + std::to_string(set.window_len) + " " +
                        window_unit_name(options.unit) + " gives more than " +
                        std::to_string(kMaxWindows) + " windows; choose a larger window length");
    }
    const auto n = static_cast<std::uint64_t>(count);
    Slicer ddr_slicer(ddr_value, ddr_range.begin, ddr_range.end, n);
    Slicer hbm_slicer(hbm_value, hbm_range->begin, hbm_range->end, n);
    for (std::uint64_t i = 0; i < n; ++i) {
      const Slice d = ddr_slicer.next(i);
      const Slice h = hbm_slicer.next(i);
      if (d.begin == d.end && h.begin == h.end) {
        previous_empty = true;
        continue;
      }
      const std::uint64_t ddr_b = d.begin < d.end ? ddr.timestamp[d.begin] : ddr_last_end;
      const std::uint64_t ddr_e = d.begin < d.end ? ddr.timestamp[d.end - 1] : ddr_last_end;
      const std::uint64_t hbm_b = h.begin < h.end ? hbm.timestamp[h.begin] : hbm_last_end;
      const std::uint64_t hbm_e = h.begin < h.end ? hbm.timestamp[h.end - 1] : hbm_last_end;
      if (previous_empty) {
        set.windows.push_back(
            {ddr_b - ddr_last_end, hbm_b - hbm_last_end, d.begin, d.begin, ddr_range.phase, true});
        ddr_last_end = ddr_b;
        hbm_last_end = hbm_b;
      }
      set.windows.push_back(
          {ddr_e - ddr_last_end, hbm_e - hbm_last_end, d.begin, d.end, ddr_range.phase, false});
      ddr_last_end = ddr_e;
      hbm_last_end = hbm_e;
      previous_empty = false;
    }
  }
  return set;
}

}  // namespace sysgym::memtier
