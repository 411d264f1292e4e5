#include "memtier/traces/trace.hpp"

#include <algorithm>
#include <cctype>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/error.hpp"
#include "base/quote.hpp"

namespace sysgym::memtier {

std::vector<std::uint32_t> Trace::phases() const {
  std::vector<std::uint32_t> out;
  for (std::uint32_t p : phase) {
    if (out.empty() || out.back() != p) out.push_back(p);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::uint64_t Trace::span_ticks() const {
  return timestamp.empty() ? 0 : timestamp.back() - timestamp.front();
}

double ticks_per_ms(TimeBase base, double cpu_cycles_per_ms) {
  return base == TimeBase::kNanoseconds ? 1.0e6 : cpu_cycles_per_ms;
}

const char* time_base_name(TimeBase base) {
  return base == TimeBase::kNanoseconds ? "nanoseconds" : "cycles";
}

void SampleOrderChecker::fail(const std::string& where, const char* column, std::uint64_t value,
                              std::uint64_t previous) {
  throw TraceFormatError(where + ": " + column + " " + std::to_string(value) +
                         " is smaller than the previous sample's " + std::to_string(previous) +
                         " (samples must be ordered by time, grouped by increasing phase)");
}

void check_span(const Trace& trace) {
  if (trace.span_ticks() > kMaxSpanTicks) {
    throw TraceFormatError(trace.source + ": the run spans " + std::to_string(trace.span_ticks()) +
                           " ticks from its first to its last Timestamp, more than 2^62 (" +
                           std::to_string(kMaxSpanTicks) +
                           "): timestamps this far apart are not one run");
  }
}

void validate_trace(const Trace& trace) {
  if (trace.empty()) throw TraceFormatError(trace.source + ": the trace has no samples");
  const std::size_t n = trace.size();
  auto check_length = [&](std::size_t length, const char* column, bool optional) {
    if (length == n || (optional && length == 0)) return;
    throw TraceFormatError(trace.source + ": column " + column + " has " + std::to_string(length) +
                           " values for " + std::to_string(n) + " samples");
  };
  check_length(trace.vaddr.size(), "Vaddr", false);
  check_length(trace.phase.size(), "Phase", false);
  check_length(trace.instrs.size(), "Instrs", true);
  check_length(trace.index.size(), "Index", true);
  check_length(trace.access.size(), "Access", true);
  check_span(trace);
  SampleOrderChecker checker;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t* instrs = trace.has_instrs() ? &trace.instrs[i] : nullptr;
    const std::uint64_t adjusted = checker.check(trace.timestamp[i], trace.phase[i], instrs, [&] {
      return trace.source + ": sample " + std::to_string(i);
    });
    // Stored counts are already cumulative: a restart here is an error, not a fix-up.
    if (instrs != nullptr && adjusted != *instrs) {
      throw TraceFormatError(trace.source + ": sample " + std::to_string(i) +
                             ": Instrs decreases at a phase change in a stored trace");
    }
  }
}

void validate_pair(const TracePair& pair) {
  validate_trace(pair.ddr);
  validate_trace(pair.hbm);
  if (!pair.ddr.set_id.empty() && !pair.hbm.set_id.empty() && pair.ddr.set_id != pair.hbm.set_id) {
    throw TraceFormatError("trace pair: " + pair.ddr.source + " and " + pair.hbm.source +
                           " were not written together (set " + pair.ddr.set_id + " vs set " +
                           pair.hbm.set_id +
                           "): they are runs of different captures or seeds; write the pair again");
  }
  if (pair.ddr.time_base != pair.hbm.time_base) {
    throw TraceFormatError("trace pair: " + pair.ddr.source + " counts time in " +
                           time_base_name(pair.ddr.time_base) + " but " + pair.hbm.source + " in " +
                           time_base_name(pair.hbm.time_base));
  }
  const auto ddr_phases = pair.ddr.phases();
  const auto hbm_phases = pair.hbm.phases();
  if (ddr_phases != hbm_phases) {
    auto list = [](const std::vector<std::uint32_t>& phases) {
      std::string out;
      for (std::size_t i = 0; i < phases.size() && i < 16; ++i) {
        if (i > 0) out += ',';
        out += std::to_string(phases[i]);
      }
      if (phases.size() > 16) out += ",...";
      return out;
    };
    throw TraceFormatError("trace pair: phases differ: " + pair.ddr.source + " has {" +
                           list(ddr_phases) + "} but " + pair.hbm.source + " has {" +
                           list(hbm_phases) + "} (both runs must mark the same phases)");
  }
}

std::string pair_set_id(const TracePair& pair) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  for (const Trace* t : {&pair.ddr, &pair.hbm}) {
    const std::uint64_t size = t->size();
    XXH3_64bits_update(state, &size, sizeof size);
    XXH3_64bits_update(state, t->timestamp.data(), t->timestamp.size() * sizeof(std::uint64_t));
    XXH3_64bits_update(state, t->vaddr.data(), t->vaddr.size() * sizeof(std::uint64_t));
  }
  const std::uint64_t hash = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id(16, '0');
  for (int i = 0; i < 16; ++i)
    id[static_cast<std::size_t>(i)] = kHex[(hash >> (60 - 4 * i)) & 0xf];
  return id;
}

void stamp_set_id(TracePair& pair, std::span<Trace> mixed) {
  const std::string id = pair_set_id(pair);
  pair.ddr.set_id = id;
  pair.hbm.set_id = id;
  for (Trace& t : mixed)
    t.set_id = id;
}

void check_set_id(const std::string& id, const std::string& where) {
  const bool ok = !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_';
  });
  if (!ok) {
    throw TraceFormatError(where + ": set id " + quote(id, 64) +
                           " is not 1 to 64 letters, digits, '-' or '_'");
  }
}

}  // namespace sysgym::memtier
