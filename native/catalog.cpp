#include "catalog.hpp"

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "builtins/builtins.hpp"
#include "data_files.hpp"
#include "env/config_grid.hpp"
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

std::vector<std::string> EnvFlags::all_settings() const {
  std::vector<std::string> all = sets;
  // An optional ENV took the first KEY=VALUE when none was named.
  if (env.find('=') != std::string::npos) all.push_back(env);
  all.insert(all.end(), settings.begin(), settings.end());
  return all;
}

nlohmann::json EnvFlags::given_config() const {
  return config.empty() ? nlohmann::json() : json_option(config, "--config");
}

nlohmann::json EnvFlags::config_over(const EnvSpec& spec, nlohmann::json base) const {
  return spec.command_line_config(std::move(base), given_config(), all_settings());
}

void add_env_flags(CLI::App& command, EnvFlags& flags, bool env_optional) {
  CLI::Option* env = command.add_option("env", flags.env, "Env id or name (see `sysgym list`)");
  if (!env_optional) env->required();
  command.add_option("settings", flags.settings,
                     "KEY=VALUE config settings after ENV (as --set): trace=lammps bins=32");
  add_config_flags(command, flags.config, flags.sets);
}

std::vector<nlohmann::json> VaryFlags::grid(const EnvSpec& spec, const nlohmann::json& base) const {
  return config_grid(spec, base, texts);
}

void add_vary_flag(CLI::App& command, VaryFlags& flags) {
  command
      .add_option("--vary", flags.texts,
                  "KEY=V1,V2,...: one config per value (repeatable: every combination); "
                  "KEY=[JSON array] when a value holds a comma")
      ->allow_extra_args(false);
}

}  // namespace sysgym::cli
