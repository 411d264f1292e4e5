// Envs are made by versioned id ("memtier-v0") from a JSON config. The registry knows nothing
// about any particular env: each env family registers itself through an explicit call
// (register_builtins), never through static initialisers, which static links silently drop.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "env/config_schema.hpp"
#include "env/env.hpp"

namespace sysgym {

using EnvFactory = std::function<std::unique_ptr<Env>(const nlohmann::json& config)>;

struct EnvSpec {
  std::string id;       // "<name>-v<version>", e.g. "memtier-v0"
  std::string summary;  // one line for `sysgym describe` and env listings
  EnvFactory factory;
  // Keys that make a working env when a user gives none (memtier: a small synthetic trace);
  // `describe` and check_env start from it. Given keys override it.
  nlohmann::json example_config = nlohmann::json::object();
  // Every config key (describe, the docs' config tables, the web form and --set read it).
  ConfigSchema schema;
  // How training and evaluation adapt a user's config; either may be empty (the config is used
  // as given).
  //
  // for_training adds, only where the user set none, keys that make the env offer `action_kind`
  // actions ("Discrete" for DQN, "MultiBinary" for PPO) and vary its episodes (memtier: the action
  // mode; random starts when episodes are shorter than the trace).
  std::function<nlohmann::json(nlohmann::json config, std::string_view action_kind)> for_training =
      {};
  // for_evaluation: the configs on which `sysgym eval` runs a policy trained on `config`, each
  // one whole episode over all the data; it replaces the training's episode keys (memtier: from
  // the first window to the last; a capacity range becomes its two ends).
  std::function<std::vector<nlohmann::json>(nlohmann::json config)> for_evaluation = {};
  // `base` with each "KEY=VALUE" of `settings` over it, VALUE typed by the schema (JSON when it
  // parses as JSON, else a string): what `--set` and `ENV KEY=VALUE...` mean in every shell.
  // Throws ConfigError / UnknownNameError naming `context` and the key.
  nlohmann::json with_settings(nlohmann::json base, const std::vector<std::string>& settings,
                               const std::string& context = "--set") const;
  // What `--config` and the settings make of `base` in every shell: `base`, then the keys of
  // --config's object `given` (null when there was no --config; ConfigError when it is not an
  // object), then with_settings.
  nlohmann::json command_line_config(nlohmann::json base, const nlohmann::json& given,
                                     const std::vector<std::string>& settings) const;
  // Applies the hooks (identity when a hook is empty).
  nlohmann::json training_config(nlohmann::json config, std::string_view action_kind) const;
  std::vector<nlohmann::json> evaluation_configs(nlohmann::json config) const;
};

class Registry {
 public:
  // Throws ApiMisuseError when the id is not of the form name-vN or is already registered.
  void add(EnvSpec spec);

  // `id` is a full id or a bare name ("memtier"), which means its highest version.
  // Throws UnknownNameError naming the closest registered id; the factory's ConfigError passes
  // through unchanged.
  std::unique_ptr<Env> make(std::string_view id,
                            const nlohmann::json& config = nlohmann::json::object()) const;

  // The full id `id` stands for (see make()).
  std::string resolve(std::string_view id) const;
  const EnvSpec& spec(std::string_view id) const;
  std::vector<std::string> ids() const;  // sorted
  // The env registered first (the shells' default where no env is named: memtier-v0); throws
  // ApiMisuseError when none is.
  const std::string& first_id() const;

 private:
  std::map<std::string, EnvSpec, std::less<>> specs_;
  std::string first_;
};

// Splits "name-vN" into name and N; returns false when `id` is not of that form.
bool parse_env_id(std::string_view id, std::string& name, int& version);

}  // namespace sysgym
