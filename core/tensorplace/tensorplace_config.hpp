// tensorplace-v0's configuration: which iteration (a zoo model at a batch, or a graph file), how
// much fast memory, which platform, and how many operands the agent sees per kernel.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "base/data_store.hpp"
#include "env/config_schema.hpp"
#include "tensorplace/graph.hpp"
#include "tensorplace/platform.hpp"

namespace sysgym::tensorplace {

const ConfigSchema& tensorplace_schema();

struct TensorplaceConfig {
  nlohmann::json resolved;  // every key with its effective value
  std::shared_ptr<const Graph> graph;
  Platform platform;
  std::uint64_t fast_limit = 0;  // bytes
  std::uint32_t slots = 8;
  bool start_fast = false;  // persistent tensors start in fast memory while they fit
  bool moves = true;        // false: a tensor stays in the pool it was born in (AutoTM's static)
  // The iteration of the plan named by ilp_plan, replayed on this graph, platform and limit.
  std::optional<double> ilp_seconds;
};

// Throws ConfigError / UnknownNameError naming the key; `data` holds graph files by name.
TensorplaceConfig read_tensorplace_config(const nlohmann::json& config, const DataSource& data);

// "50%" of peak live bytes, "1:4" slow:fast (AutoTM's PMM:DRAM ratio: fast memory is 4/5 of the
// peak), or a size ("8GiB", or a number of bytes). Throws ConfigError naming `key`.
std::uint64_t parse_fast_memory(const nlohmann::json& value, std::uint64_t peak_live_bytes,
                                const std::string& key);

}  // namespace sysgym::tensorplace
