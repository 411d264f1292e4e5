// The machine a placement runs on: fast and slow memory bandwidths per direction, the compute
// peak for the roofline, and the bandwidths of moves between the pools (AutoTM's figures).
//
//   kernel time = max(flops / peak_flops, sum over operands of bytes / bandwidth(pool, direction))
//   (inputs are read, outputs written; a kernel with a measured time table uses the table)
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "tensorplace/graph.hpp"

namespace sysgym::tensorplace {

// Platform rates are per second; the ILP and the simulator report milliseconds.
inline constexpr double kMsPerSecond = 1e3;

struct Platform {
  std::string name;
  double peak_flops = 0;  // FLOP/s
  // Bytes per second.
  double fast_read = 0;
  double fast_write = 0;
  double slow_read = 0;
  double slow_write = 0;
  double sync_to_fast = 0;  // a move that stalls execution
  double sync_to_slow = 0;
  double async_to_fast = 0;  // a move overlapped with a kernel
  double async_to_slow = 0;
  std::uint32_t async_window = 15;  // async moves overlap kernels within this many of a user

  double read_bandwidth(Pool pool) const { return pool == kFast ? fast_read : slow_read; }
  double write_bandwidth(Pool pool) const { return pool == kFast ? fast_write : slow_write; }
  nlohmann::json to_json() const;
};

// `optane`: a 2nd-generation Xeon socket with DDR4 as fast memory and 6 interleaved Optane DIMMs
// as slow memory; `gpu`: device memory as fast and host memory over PCIe 3.0 x16 as slow.
Platform platform_named(const std::string& name);  // UnknownNameError
std::vector<std::string> platform_names();
// A named platform with some fields replaced: {"name": "optane", "peak_flops": 2e12, ...}.
// Throws ConfigError for an unknown key or a value that is not a positive number.
Platform platform_from_json(const nlohmann::json& j, const std::string& context);

// Seconds kernel `k` takes with the operands whose bits are set in `slow_mask` (bit i = operand
// i, inputs then outputs; operands past the 32nd in fast memory) in slow memory.
double kernel_time(const Graph& graph, std::uint32_t k, std::uint32_t slow_mask,
                   const Platform& platform);
// The same with each tensor's pool in `where` (any operand count).
double kernel_time(const Graph& graph, std::uint32_t k, std::span<const Pool> where,
                   const Platform& platform);

}  // namespace sysgym::tensorplace
