#include "catalog.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/quote.hpp"
#include "builtins/builtins.hpp"
#include "data_files.hpp"
#include "files.hpp"

namespace sysgym::cli {

Catalog& catalog() {
  static Catalog instance = [] {
    Catalog c;
    c.data = std::make_shared<FileData>();
    register_builtins(c.envs, c.policies, c.data);
    return c;
  }();
  return instance;
}

nlohmann::json json_option(const std::string& text, const std::string& flag) {
  std::string json = text;
  const std::size_t first = text.find_first_not_of(" \t\n");
  if (first == std::string::npos || (text[first] != '{' && text[first] != '[')) {
    const MappedFile file(text);
    json.assign(reinterpret_cast<const char*>(file.bytes().data()), file.bytes().size());
  }
  return parse_json_text(json, flag);
}

namespace {

// `base`, then --config's keys, then each KEY=VALUE typed by the env's schema.
nlohmann::json config_from_flags(const EnvSpec& spec, nlohmann::json base,
                                 const std::string& config_text,
                                 const std::vector<std::string>& sets) {
  return spec.command_line_config(
      std::move(base),
      config_text.empty() ? nlohmann::json() : json_option(config_text, "--config"), sets);
}

void add_config_flags(CLI::App& command, std::string& config_text, std::vector<std::string>& sets) {
  command.add_option("--config", config_text, "Env config: JSON text or a JSON file");
  command
      .add_option("--set", sets,
                  "KEY=VALUE over the config (repeatable); VALUE is JSON when it parses as "
                  "JSON, else a string")
      ->allow_extra_args(false);
}

}  // namespace

bool EnvFlags::named() const {
  return !env.empty() && env.find('=') == std::string::npos;
}

std::string EnvFlags::id() const {
  if (!named()) throw ConfigError("name an env first (`sysgym list` shows them)");
  return catalog().envs.resolve(env);
}

nlohmann::json EnvFlags::config_over(nlohmann::json base) const {
  return config_over(catalog().envs.spec(id()), std::move(base));
}

nlohmann::json EnvFlags::config_over(const EnvSpec& spec, nlohmann::json base) const {
  std::vector<std::string> all = sets;
  // An optional ENV took the first KEY=VALUE when none was named.
  if (env.find('=') != std::string::npos) all.push_back(env);
  all.insert(all.end(), settings.begin(), settings.end());
  return config_from_flags(spec, std::move(base), config, all);
}

void add_env_flags(CLI::App& command, EnvFlags& flags, bool env_optional) {
  CLI::Option* env = command.add_option("env", flags.env, "Env id or name (see `sysgym list`)");
  if (!env_optional) env->required();
  command.add_option("settings", flags.settings,
                     "KEY=VALUE config settings after ENV (as --set): trace=lammps bins=32");
  add_config_flags(command, flags.config, flags.sets);
}

namespace {

struct Variation {
  std::string key;
  std::vector<nlohmann::json> values;
};

Variation parse_variation(const EnvSpec& spec, const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
    throw ConfigError("--vary: expected KEY=V1,V2,..., got " + quote(text));
  Variation v{text.substr(0, equals), {}};
  const std::string list = text.substr(equals + 1);
  const std::string context = "--vary " + spec.id;
  // As ConfigSchema::value_of_text: JSON only when it parses, and then with the depth limit.
  const nlohmann::json as_json =
      nlohmann::json::accept(list) ? parse_json_text(list, context) : nlohmann::json();
  if (as_json.is_array()) {
    for (const nlohmann::json& value : as_json)
      v.values.push_back(spec.schema.value_of_text(v.key, value.dump(), context));
  } else {
    for (std::size_t start = 0; start <= list.size();) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      v.values.push_back(spec.schema.value_of_text(
          v.key, std::string_view(list).substr(start, comma - start), context));
      start = comma + 1;
    }
  }
  if (v.values.empty()) throw ConfigError(context + ": " + quote(v.key) + " has no values");
  return v;
}

}  // namespace

std::vector<nlohmann::json> VaryFlags::grid(const EnvSpec& spec, const nlohmann::json& base) const {
  std::vector<nlohmann::json> configs = {base};
  std::vector<std::string> seen;
  for (const std::string& text : texts) {
    const Variation v = parse_variation(spec, text);
    if (std::find(seen.begin(), seen.end(), v.key) != seen.end())
      throw ConfigError("--vary: " + quote(v.key) + " is varied twice; list its values once");
    seen.push_back(v.key);
    std::vector<nlohmann::json> next;
    for (const nlohmann::json& config : configs) {
      for (const nlohmann::json& value : v.values) {
        next.push_back(config);
        next.back()[v.key] = value;
      }
    }
    configs = std::move(next);
  }
  return configs;
}

void add_vary_flag(CLI::App& command, VaryFlags& flags) {
  command
      .add_option("--vary", flags.texts,
                  "KEY=V1,V2,...: one config per value (repeatable: every combination); "
                  "KEY=[JSON array] when a value holds a comma")
      ->allow_extra_args(false);
}

}  // namespace sysgym::cli
