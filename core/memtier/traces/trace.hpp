// The sample / trace / trace-pair model of memtier (spec memtier.md section 1).
//
// A trace is stored by columns: every reader and writer, the windowing and the binary format
// work on whole columns, and a column a source lacks (Instrs in perf data, Index) is empty.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sysgym::memtier {

// What a Timestamp counts: CPU cycles (MemAI CSV, converted with cpu_cycles_per_ms) or
// nanoseconds (perf script).
enum class TimeBase : std::uint8_t { kCycles = 0, kNanoseconds = 1 };

enum class AccessKind : std::uint8_t { kUnknown = 0, kLoad = 1, kStore = 2 };

struct Trace {
  std::string source = "<memory>";  // file name, used in every message about this trace
  TimeBase time_base = TimeBase::kCycles;
  std::vector<std::uint64_t> timestamp;
  std::vector<std::uint64_t> vaddr;
  std::vector<std::uint32_t> phase;   // one per sample; 0 when the source marks no phases
  std::vector<std::uint64_t> instrs;  // instructions retired so far; empty when unknown
  std::vector<std::uint64_t> index;   // sample index; empty when unknown
  std::vector<std::uint8_t> access;   // AccessKind per sample; empty when unknown
  // Names the set of runs written together (a pair and its mixed runs); "" when unknown.
  std::string set_id;

  std::size_t size() const { return timestamp.size(); }
  bool empty() const { return timestamp.empty(); }
  bool has_instrs() const { return !instrs.empty(); }
  // Distinct phases in increasing order.
  std::vector<std::uint32_t> phases() const;
  // Last minus first timestamp (0 for an empty trace).
  std::uint64_t span_ticks() const;
};

// The longest run a trace may span, in ticks (first to last Timestamp): 2^62, 104 years of
// 1.4 GHz cycles. Sums and differences of two runs' ticks then fit 64-bit integers, so no
// estimate can wrap.
inline constexpr std::uint64_t kMaxSpanTicks = std::uint64_t{1} << 62;

struct TracePair {
  Trace ddr;  // the run with all data in DDR
  Trace hbm;  // the same run with all data in HBM
};

// Ticks of `base` per millisecond; cpu_cycles_per_ms applies to cycle-based traces.
double ticks_per_ms(TimeBase base, double cpu_cycles_per_ms);
const char* time_base_name(TimeBase base);

// Throws TraceFormatError (naming trace.source and the sample) unless: the trace is non-empty,
// its columns have equal lengths, timestamps, phases and instruction counts never decrease, and
// the run spans at most kMaxSpanTicks.
void validate_trace(const Trace& trace);
// The kMaxSpanTicks part of validate_trace, for readers that check the rest as they parse.
void check_span(const Trace& trace);
// validate_trace on both, plus: same time base, same set of phases, and the same set id when
// both carry one (a DDR file of one capture beside the HBM file of another is refused).
void validate_pair(const TracePair& pair);

// The set id of a pair written together: 16 hex digits hashed from both runs' samples, so the
// same pair always gets the same id and two different pairs almost surely do not.
std::string pair_set_id(const TracePair& pair);
// Stamps pair_set_id on both runs and on each of `mixed`.
void stamp_set_id(TracePair& pair, std::span<Trace> mixed = {});
// A set id read from a file: 1 to 64 characters of [0-9A-Za-z_-]. Throws TraceFormatError.
void check_set_id(const std::string& id, const std::string& where);

// Enforces the ordering rules sample by sample while a reader parses, so errors name the line.
// Instruction counters that restart at a phase change (as in some MemAI traces) are made
// cumulative by adding the count reached at the end of the previous phase.
class SampleOrderChecker {
 public:
  // Returns the (possibly offset) instruction count; `where` names the sample on error.
  // Throws TraceFormatError.
  template <typename Where>
  std::uint64_t check(std::uint64_t timestamp, std::uint32_t phase, const std::uint64_t* instrs,
                      Where&& where) {
    std::uint64_t adjusted = 0;
    if (started_) {
      if (timestamp < last_timestamp_) fail(where(), "Timestamp", timestamp, last_timestamp_);
      if (phase < last_phase_) fail(where(), "Phase", phase, last_phase_);
    }
    if (instrs != nullptr) {
      adjusted = *instrs + instrs_offset_;
      if (started_ && adjusted < last_instrs_) {
        if (phase == last_phase_) fail(where(), "Instrs", *instrs, last_instrs_ - instrs_offset_);
        instrs_offset_ = last_instrs_;  // counter restarted with the new phase
        adjusted = *instrs + instrs_offset_;
      }
      last_instrs_ = adjusted;
    }
    started_ = true;
    last_timestamp_ = timestamp;
    last_phase_ = phase;
    return adjusted;
  }

 private:
  [[noreturn]] static void fail(const std::string& where, const char* column, std::uint64_t value,
                                std::uint64_t previous);
  bool started_ = false;
  std::uint64_t last_timestamp_ = 0;
  std::uint32_t last_phase_ = 0;
  std::uint64_t last_instrs_ = 0;
  std::uint64_t instrs_offset_ = 0;
};

}  // namespace sysgym::memtier
