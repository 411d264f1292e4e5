// Builds a modeled DDR/HBM trace pair from a program's access stream (lackey lines): data
// accesses go through the LLC model, every `sample_period`-th miss becomes a sample (like a
// PEBS sampling period), and both runs' clocks advance by the timing model. Placements given in
// `mixed` are modeled too (a miss costs the fast memory's time when its address is in the
// ranges), standing in for MemAI's measured mixed runs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "memtier/capture/cache_model.hpp"
#include "memtier/capture/timing_model.hpp"
#include "memtier/hbm_ranges.hpp"
#include "memtier/traces/trace.hpp"

namespace sysgym::capture {

struct CaptureOptions {
  CacheConfig cache;
  std::uint64_t sample_period = 64;      // keep every N-th LLC miss
  std::uint64_t phase_instructions = 0;  // a new phase every N instructions (0: one phase)
  std::string timing = "knl";
  std::vector<memtier::HbmRanges> mixed;  // placements to model
};

struct CaptureStats {
  std::uint64_t lines = 0;
  std::uint64_t instructions = 0;          // in kept phases
  std::uint64_t skipped_instructions = 0;  // in phases that were not kept
  std::uint64_t data_accesses = 0;
  std::uint64_t misses = 0;
  std::uint64_t samples = 0;
};

// A phase started by a marker in the program's output.
struct CapturePhase {
  std::string name;
  bool kept = true;
  std::uint32_t id = 0;            // the Phase column value of its samples (kept phases only)
  std::uint64_t instructions = 0;  // run in the phase, kept or not
  std::uint64_t misses = 0, samples = 0;
};

struct CaptureResult {
  memtier::TracePair pair;
  std::vector<memtier::Trace> mixed;  // one per CaptureOptions::mixed
  CaptureStats stats;
  double ddr_ms = 0, hbm_ms = 0;  // modeled whole-run times
  std::vector<double> mixed_ms;
  std::vector<CapturePhase> phases;  // in program order; one named "start" when no marker came
};

class CaptureBuilder {
 public:
  // Throws ConfigError / UnknownNameError for bad options.
  explicit CaptureBuilder(CaptureOptions options);

  // One line of lackey output; throws TraceFormatError for a malformed one.
  void add_line(std::string_view line);
  // Ends the current phase and starts one named `name` (from a marker in the program's output).
  // A phase that is not kept is cut out of the run: its instructions, misses and time count
  // nowhere and it yields no sample, while its accesses still pass through the cache so the
  // next kept phase starts with the cache the program left. Kept phases get consecutive ids.
  // A phase in which no instruction ran is renamed by the marker instead: no phase is empty.
  void start_phase(std::string name, bool keep);
  const CaptureStats& stats() const { return stats_; }
  // Throws TraceFormatError when the stream held no sample (too few misses for the period).
  CaptureResult finish(const std::string& name);

 private:
  void data_access(std::uint64_t address, std::uint32_t size);
  void miss(std::uint64_t address);

  CaptureOptions options_;
  const TimingModel& timing_;
  CacheModel cache_;
  double slow_ns_, fast_ns_;
  double ddr_clock_ = 0, hbm_clock_ = 0;
  std::vector<double> mixed_clocks_;
  CaptureStats stats_;
  memtier::TracePair pair_;
  std::vector<memtier::Trace> mixed_;
  std::vector<CapturePhase> phases_{CapturePhase{"start"}};
  std::uint32_t kept_before_last_ = 0;  // kept phases in phases_ but its last
};

}  // namespace sysgym::capture
