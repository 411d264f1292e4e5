#include "catalog.hpp"

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/quote.hpp"
#include "builtins/builtins.hpp"
#include "files.hpp"
#include "trace_names.hpp"

namespace sysgym::cli {

Catalog& catalog() {
  static Catalog instance = [] {
    Catalog c;
    register_builtins(c.envs, c.policies, c.traces);
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

nlohmann::json config_from_flags(const EnvSpec& spec, nlohmann::json base,
                                 const std::string& config_text,
                                 const std::vector<std::string>& sets) {
  if (!config_text.empty()) {
    const nlohmann::json given = json_option(config_text, "--config");
    if (!given.is_object()) throw ConfigError("--config: expected a JSON object");
    base.update(given);
  }
  for (const std::string& set : sets) {
    const std::size_t equals = set.find('=');
    if (equals == std::string::npos || equals == 0)
      throw ConfigError("--set: expected KEY=VALUE, got " + quote(set));
    const std::string key = set.substr(0, equals);
    base[key] = spec.schema.value_of_text(key, std::string_view(set).substr(equals + 1),
                                          "--set " + spec.id);
  }
  return base;
}

void add_config_flags(CLI::App& command, std::string& config_text, std::vector<std::string>& sets) {
  command.add_option("--config", config_text, "Env config: JSON text or a JSON file");
  command.add_option("--set", sets,
                     "KEY=VALUE over the config (repeatable); VALUE is JSON when it parses as "
                     "JSON, else a string");
}

std::string EnvFlags::id() const {
  return catalog().envs.resolve(env);
}

nlohmann::json EnvFlags::config_over(nlohmann::json base) const {
  std::vector<std::string> all = sets;
  all.insert(all.end(), settings.begin(), settings.end());
  return config_from_flags(catalog().envs.spec(id()), std::move(base), config, all);
}

void add_env_flags(CLI::App& command, EnvFlags& flags, bool env_optional) {
  CLI::Option* env = command.add_option("env", flags.env, "Env id or name (see `sysgym list`)");
  if (!env_optional) env->required();
  command.add_option("settings", flags.settings,
                     "KEY=VALUE config settings after ENV (as --set): trace=lammps bins=32");
  add_config_flags(command, flags.config, flags.sets);
}

std::string resolve_trace_name(const std::string& name) {
  if (name.rfind("synth:", 0) == 0) return name;
  const PairFiles files = find_pair_files(name);
  return files.prepared.empty() ? files.ddr + "," + files.hbm : name;
}

}  // namespace sysgym::cli
