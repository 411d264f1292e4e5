// looptune-v0's configuration: which computation (a generated kernel, a benchmark set drawn from
// per episode, or a problem file), how long an episode is, how many loops a nest may have, and
// whether rewards come from the cost model or from measuring.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/data_store.hpp"
#include "env/config_schema.hpp"
#include "looptune/cost_model.hpp"
#include "looptune/loop_nest.hpp"

namespace sysgym::looptune {

const ConfigSchema& looptune_schema();

struct LooptuneConfig {
  nlohmann::json resolved;
  std::vector<std::shared_ptr<const Problem>> problems;  // one, or a set drawn from per episode
  std::int64_t episode_length = 10;
  std::size_t max_loops = 10;
  bool measure = false;      // rewards from measured GFLOPS instead of the cost model
  bool annotations = false;  // the unroll / vectorize actions decide the micro-kernels
  CostModel model;
};

// Throws ConfigError / UnknownNameError naming the key; `data` holds problem files by name.
LooptuneConfig read_looptune_config(const nlohmann::json& config, const DataSource& data);

}  // namespace sysgym::looptune
