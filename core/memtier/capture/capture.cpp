#include "memtier/capture/capture.hpp"

#include <cmath>
#include <limits>

#include "base/error.hpp"
#include "memtier/capture/lackey.hpp"

namespace sysgym::capture {

CaptureBuilder::CaptureBuilder(CaptureOptions options)
    : options_(std::move(options)), timing_(timing_model(options_.timing)), cache_(options_.cache) {
  if (options_.sample_period == 0) throw ConfigError("sample period must be at least 1 miss");
  slow_ns_ = timing_.miss_ns(timing_.slow, options_.cache.line_bytes);
  fast_ns_ = timing_.miss_ns(timing_.fast, options_.cache.line_bytes);
  mixed_clocks_.assign(options_.mixed.size(), 0.0);
  mixed_.resize(options_.mixed.size());
}

void CaptureBuilder::add_line(std::string_view line) {
  ++stats_.lines;
  const LackeyEvent e = parse_lackey_line(line, stats_.lines);
  switch (e.kind) {
    case LackeyKind::kNone:
      return;
    case LackeyKind::kInstruction: {
      ++phases_.back().instructions;
      if (!phases_.back().kept) {
        ++stats_.skipped_instructions;
        return;
      }
      ++stats_.instructions;
      const double ns = timing_.instruction_ns();
      ddr_clock_ += ns;
      hbm_clock_ += ns;
      for (double& clock : mixed_clocks_)
        clock += ns;
      return;
    }
    case LackeyKind::kLoad:
    case LackeyKind::kStore:
    case LackeyKind::kModify:
      data_access(e.address, e.size);
      return;
  }
}

void CaptureBuilder::data_access(std::uint64_t address, std::uint32_t size) {
  ++stats_.data_accesses;
  const std::uint64_t line = cache_.line_bytes();
  // An access that straddles a line boundary touches both lines. Counted in line numbers, so
  // an access at the top of the address space ends instead of wrapping around to zero.
  const bool kept = phases_.back().kept;
  const std::uint64_t span = size == 0 ? 0 : size - 1;
  const std::uint64_t last_byte = address > std::numeric_limits<std::uint64_t>::max() - span
                                      ? std::numeric_limits<std::uint64_t>::max()
                                      : address + span;
  const std::uint64_t last = last_byte / line;
  for (std::uint64_t l = address / line;; ++l) {
    const std::uint64_t a = l * line;
    if (!cache_.access(a) && kept) miss(std::max(a, address));
    if (l == last) break;
  }
}

void CaptureBuilder::start_phase(std::string name, bool keep) {
  if (options_.phase_instructions != 0) {
    throw ConfigError("phases come either every N instructions or from markers, not both");
  }
  CapturePhase& current = phases_.back();
  // Nothing ran in the current phase: the marker renames it rather than leaving an empty one.
  // So a program printing millions of markers in a row (or from an untraced child) costs one
  // phase, not millions of empty ones in memory and in the report.
  if (current.instructions == 0) {
    current.name = std::move(name);
    current.kept = keep;
    current.id = keep ? kept_before_last_ : 0;
    return;
  }
  // Counted as phases come (a scan of all phases per marker was quadratic in the markers).
  kept_before_last_ += current.kept ? 1 : 0;
  phases_.push_back({std::move(name), keep, keep ? kept_before_last_ : 0});
}

void CaptureBuilder::miss(std::uint64_t address) {
  ++stats_.misses;
  ++phases_.back().misses;
  ddr_clock_ += slow_ns_;
  hbm_clock_ += fast_ns_;
  for (std::size_t i = 0; i < mixed_clocks_.size(); ++i) {
    mixed_clocks_[i] += options_.mixed[i].contains(address) ? fast_ns_ : slow_ns_;
  }
  if (stats_.misses % options_.sample_period != 0) return;
  ++stats_.samples;
  ++phases_.back().samples;
  const auto phase = static_cast<std::uint32_t>(
      options_.phase_instructions == 0 ? phases_.back().id
                                       : stats_.instructions / options_.phase_instructions);
  auto push = [&](memtier::Trace& t, double clock_ns) {
    t.timestamp.push_back(static_cast<std::uint64_t>(std::llround(clock_ns * timing_.cpu_ghz)));
    t.vaddr.push_back(address);
    t.phase.push_back(phase);
    t.instrs.push_back(stats_.instructions);
  };
  push(pair_.ddr, ddr_clock_);
  push(pair_.hbm, hbm_clock_);
  for (std::size_t i = 0; i < mixed_.size(); ++i)
    push(mixed_[i], mixed_clocks_[i]);
}

CaptureResult CaptureBuilder::finish(const std::string& name) {
  if (stats_.samples < 2) {
    throw TraceFormatError(name + ": the program made " + std::to_string(stats_.misses) +
                           " LLC misses, fewer than two samples at a period of " +
                           std::to_string(options_.sample_period) +
                           " (lower --period or the cache size, or trace a longer run)");
  }
  CaptureResult out;
  pair_.ddr.source = name + ".ddr";
  pair_.hbm.source = name + ".hbm";
  for (std::size_t i = 0; i < mixed_.size(); ++i)
    mixed_[i].source = name + ".mixed-" + std::to_string(i);
  const double per_ms = timing_.cycles_per_ms();
  out.ddr_ms = static_cast<double>(pair_.ddr.span_ticks()) / per_ms;
  out.hbm_ms = static_cast<double>(pair_.hbm.span_ticks()) / per_ms;
  for (const memtier::Trace& t : mixed_)
    out.mixed_ms.push_back(static_cast<double>(t.span_ticks()) / per_ms);
  memtier::stamp_set_id(pair_, mixed_);
  out.pair = std::move(pair_);
  out.mixed = std::move(mixed_);
  out.stats = stats_;
  out.phases = phases_;
  return out;
}

}  // namespace sysgym::capture
