// memtier-v0 and memtier's policies, registered: the env's spec with its training and evaluation
// hooks.
#include "memtier/memtier_family.hpp"

#include "memtier/memtier_env.hpp"
#include "memtier/pair_source.hpp"
#include "memtier/policy.hpp"

namespace sysgym::memtier {

namespace {

// DQN picks one bin to move per step; PPO decides every bin at once. Episodes shorter than the
// trace start at random windows, so K envs on one trace do not replay the same stretch.
nlohmann::json training_config(nlohmann::json config, std::string_view action_kind) {
  if (!config.contains("action_mode"))
    config["action_mode"] = action_kind == "MultiBinary" ? "bins" : "discrete";
  const nlohmann::json length = config.value("episode_length", nlohmann::json(0));
  if (!config.contains("random_start") && length.is_number_integer() && length.get<double>() > 0)
    config["random_start"] = true;
  return config;
}

// Whole traces from the first window. A raw pair or synth name is windowed as in training; a
// preprocessed pair brings its own windows and refuses window options. A capacity range that
// training drew from is evaluated at both ends.
std::vector<nlohmann::json> evaluation_configs(nlohmann::json config, PairSource& source) {
  config["episode_start"] = 0;
  config["episode_length"] = 0;
  config["random_start"] = false;
  const nlohmann::json trace = config.value("trace", nlohmann::json(""));
  if (trace.is_string() && source.is_preprocessed(trace.get<std::string>())) {
    for (const char* key : kWindowKeys)
      config.erase(key);
  }
  const nlohmann::json capacity =
      config.value("hbm_capacity", memtier_schema().at("hbm_capacity").fallback);
  if (!capacity.is_array()) return {config};
  std::vector<nlohmann::json> ends;
  for (const nlohmann::json& end : capacity) {
    ends.push_back(config);
    ends.back()["hbm_capacity"] = end;
  }
  return ends;
}

}  // namespace

void register_memtier(Registry& registry, const std::shared_ptr<PairSource>& source) {
  registry.add(
      {kMemtierId,
       "page placement between DDR and capacity-limited HBM over a differential trace pair",
       [source](const nlohmann::json& config) -> std::unique_ptr<Env> {
         return std::make_unique<MemtierEnv>(config, *source);
       },
       {{"trace", "synth:phased:5000"}, {"episode_length", 200}},
       memtier_schema(),
       training_config,
       [source](nlohmann::json config) { return evaluation_configs(std::move(config), *source); }});
}

void register_family(Registry& envs, PolicyRegistry& policies,
                     const std::shared_ptr<const DataSource>& data) {
  register_memtier(envs, pair_source_over(data));
  register_memtier_policies(policies);
}

}  // namespace sysgym::memtier
