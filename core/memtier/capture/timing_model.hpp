// The timing model that turns a captured access stream into a modeled DDR run and HBM run
// (memtier.md section 7). The traced program stands for one of `threads` identical threads:
//   instruction time  = instructions x base_cpi / cpu_ghz
//   cost of a miss    = max(latency / mlp, line_bytes x threads / bandwidth)
// i.e. a miss costs its latency divided by the misses in flight, unless the memory's bandwidth,
// shared by all threads, is the limit. Bandwidth-bound streams gain from HBM; dependent,
// latency-bound accesses can lose (MCDRAM's latency is slightly higher than DDR4's).
//
// Parameter sets (values are ours, chosen from published figures):
//   knl  Intel Xeon Phi 7250 (Knights Landing, flat mode): 1.4 GHz, 64 threads.
//        DDR4-2400, 6 channels: about 90 GB/s STREAM, about 130 ns idle latency.
//        MCDRAM: about 400 GB/s STREAM, about 150 ns idle latency.
//        (Sodani et al., "Knights Landing", IEEE Micro 36(2), 2016; McCalpin, STREAM results
//        for KNL; MemAI, ISC 2022, measured on the same machine type.)
//   cxl  A server with local DDR5 as the fast tier and a CXL memory expander as the slow one:
//        2.5 GHz, 32 threads; local DRAM about 300 GB/s and 100 ns; CXL about 64 GB/s (a PCIe 5
//        x16 link) and about 250 ns (roughly 2-2.5x local latency, as reported by Li et al.,
//        "Pond", ASPLOS 2023, and Sun et al., "Demystifying CXL Memory", MICRO 2023).
//        In sysgym's terms the "DDR" run is the slow tier (CXL) and "HBM" the fast one (DRAM).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sysgym::capture {

struct MemoryTiming {
  double latency_ns = 0;
  double bandwidth_gbps = 0;  // GB/s, 10^9 bytes per second
};

struct TimingModel {
  std::string name;
  double cpu_ghz = 1.4;
  double base_cpi = 1.0;
  double mlp = 10.0;  // misses in flight per thread
  double threads = 64.0;
  MemoryTiming slow;  // the "DDR" run
  MemoryTiming fast;  // the "HBM" run

  double instruction_ns() const { return base_cpi / cpu_ghz; }
  double miss_ns(const MemoryTiming& memory, double line_bytes) const;
  double cycles_per_ms() const { return cpu_ghz * 1e6; }
};

// Throws UnknownNameError naming the valid sets.
const TimingModel& timing_model(std::string_view name);
std::vector<std::string> timing_model_names();

}  // namespace sysgym::capture
