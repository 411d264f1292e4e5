// The envs, policies and data every env-running command shares.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/data_store.hpp"
#include "env/policy.hpp"
#include "env/registry.hpp"

namespace sysgym::cli {

struct Catalog {
  std::shared_ptr<const DataSource> data;  // files (native/data_files.hpp)
  Registry envs;
  PolicyRegistry policies;
};

Catalog& catalog();

// A JSON option: inline JSON text ("{...}") or the path of a JSON file. Throws ConfigError
// naming the flag.
nlohmann::json json_option(const std::string& text, const std::string& flag);

// What every env-running command takes: `ENV [KEY=VALUE...]`, --config and --set.
struct EnvFlags {
  std::string env;
  std::vector<std::string> settings;  // positional KEY=VALUE, the same as --set
  std::string config;
  std::vector<std::string> sets;
  // Whether ENV was given (an optional ENV may have taken a KEY=VALUE instead).
  bool named() const;
  // The env's registered id (UnknownNameError suggests the closest).
  std::string id() const;
  // `base`, then --config, then --set and the positional settings, typed by the env's schema.
  nlohmann::json config_over(nlohmann::json base) const;
  // The same, typed by `spec` (when ENV is optional and the env comes from elsewhere).
  nlohmann::json config_over(const EnvSpec& spec, nlohmann::json base) const;
  // --config's JSON (null when not given) and the settings in the order they apply.
  nlohmann::json given_config() const;
  std::vector<std::string> all_settings() const;
};
// The positional ENV (required unless `env_optional`) and KEY=VALUE settings, --config, --set.
// With an optional ENV, a first positional that holds '=' is a setting, not an env.
void add_env_flags(CLI::App& command, EnvFlags& flags, bool env_optional = false);

// Repeatable `--vary KEY=V1,V2,...` (or KEY=[JSON array] when a value holds a comma): one
// config per combination, the last key varying fastest, each value typed by the env's schema.
struct VaryFlags {
  std::vector<std::string> texts;
  // `base` with every combination of the varied keys over it (just `base` when none vary).
  // Throws ConfigError / UnknownNameError naming the flag.
  std::vector<nlohmann::json> grid(const EnvSpec& spec, const nlohmann::json& base) const;
};
void add_vary_flag(CLI::App& command, VaryFlags& flags);

}  // namespace sysgym::cli
