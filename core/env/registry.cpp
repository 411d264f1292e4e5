#include "env/registry.hpp"

#include <charconv>

#include "base/error.hpp"
#include "base/names.hpp"
#include "base/quote.hpp"

namespace sysgym {

bool parse_env_id(std::string_view id, std::string& name, int& version) {
  const std::size_t dash = id.rfind("-v");
  if (dash == std::string_view::npos || dash == 0 || dash + 2 >= id.size()) return false;
  const char* first = id.data() + dash + 2;
  const char* last = id.data() + id.size();
  const auto [end, error] = std::from_chars(first, last, version);
  if (error != std::errc() || end != last || version < 0) return false;
  name = std::string(id.substr(0, dash));
  return true;
}

nlohmann::json EnvSpec::command_line_config(nlohmann::json base, const nlohmann::json& given,
                                            const std::vector<std::string>& settings) const {
  if (!given.is_null()) {
    if (!given.is_object()) throw ConfigError("--config: expected a JSON object");
    base.update(given);
  }
  return with_settings(std::move(base), settings);
}

nlohmann::json EnvSpec::with_settings(nlohmann::json base, const std::vector<std::string>& settings,
                                      const std::string& context) const {
  for (const std::string& setting : settings) {
    const std::size_t equals = setting.find('=');
    if (equals == std::string::npos || equals == 0)
      throw ConfigError(context + ": expected KEY=VALUE, got " + quote(setting));
    const std::string key = setting.substr(0, equals);
    base[key] =
        schema.value_of_text(key, std::string_view(setting).substr(equals + 1), context + " " + id);
  }
  return base;
}

nlohmann::json EnvSpec::training_config(nlohmann::json config, std::string_view action_kind) const {
  return for_training ? for_training(std::move(config), action_kind) : config;
}

std::vector<nlohmann::json> EnvSpec::evaluation_configs(nlohmann::json config) const {
  if (!for_evaluation) return {std::move(config)};
  return for_evaluation(std::move(config));
}

void Registry::add(EnvSpec spec) {
  std::string name;
  int version = 0;
  if (!parse_env_id(spec.id, name, version)) {
    throw ApiMisuseError("env id '" + spec.id + "' must have the form <name>-v<version>");
  }
  if (!spec.factory) throw ApiMisuseError("env '" + spec.id + "' has no factory");
  if (specs_.count(spec.id) != 0) {
    throw ApiMisuseError("env '" + spec.id + "' is registered twice");
  }
  if (first_.empty()) first_ = spec.id;
  std::string id = spec.id;
  specs_.emplace(std::move(id), std::move(spec));
}

const std::string& Registry::first_id() const {
  if (first_.empty()) throw ApiMisuseError("no env is registered");
  return first_;
}

std::string Registry::resolve(std::string_view id) const {
  if (specs_.count(id) != 0) return std::string(id);
  std::string best;
  int best_version = -1;
  for (const auto& [full_id, spec] : specs_) {
    std::string name;
    int version = 0;
    if (parse_env_id(full_id, name, version) && name == id && version > best_version) {
      best = full_id;
      best_version = version;
    }
  }
  if (best.empty()) {
    std::vector<std::string> accepted = ids();
    for (const auto& [full_id, spec] : specs_) {
      std::string name;
      if (parse_env_id(full_id, name, best_version)) accepted.push_back(name);
    }
    throw UnknownNameError(unknown_name_message("env", id, ids(), accepted));
  }
  return best;
}

const EnvSpec& Registry::spec(std::string_view id) const {
  return specs_.find(resolve(id))->second;
}

std::unique_ptr<Env> Registry::make(std::string_view id, const nlohmann::json& config) const {
  return spec(id).factory(config);
}

std::vector<std::string> Registry::ids() const {
  std::vector<std::string> out;
  for (const auto& [id, spec] : specs_)
    out.push_back(id);
  return out;
}

}  // namespace sysgym
