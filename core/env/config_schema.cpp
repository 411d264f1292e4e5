#include "env/config_schema.hpp"

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/names.hpp"
#include "base/numbers.hpp"

namespace sysgym {
namespace {

const char* type_name(ConfigType type) {
  switch (type) {
    case ConfigType::kInteger:
      return "integer";
    case ConfigType::kNumber:
      return "number";
    case ConfigType::kBoolean:
      return "boolean";
    case ConfigType::kString:
      return "string";
    case ConfigType::kChoice:
      return "choice";
    case ConfigType::kValue:
      return "value";
  }
  return "value";
}

std::string integer_text(double x) {
  return nlohmann::json(integer_bound(x)).dump();
}

}  // namespace

std::int64_t integer_bound(double x) {
  return x >= 9.2e18 ? INT64_MAX : x <= -9.2e18 ? INT64_MIN : static_cast<std::int64_t>(x);
}

ConfigKey integer_key(std::string name, std::int64_t fallback, double min, double max,
                      std::string doc, std::string unit) {
  ConfigKey k;
  k.name = std::move(name);
  k.type = ConfigType::kInteger;
  k.fallback = fallback;
  k.min = min;
  k.max = max;
  k.doc = std::move(doc);
  k.unit = std::move(unit);
  return k;
}

ConfigKey number_key(std::string name, nlohmann::json fallback, double min, double max,
                     std::string doc, std::string unit) {
  ConfigKey k = integer_key(std::move(name), 0, min, max, std::move(doc), std::move(unit));
  k.type = ConfigType::kNumber;
  k.fallback = std::move(fallback);
  return k;
}

ConfigKey boolean_key(std::string name, bool fallback, std::string doc) {
  ConfigKey k;
  k.name = std::move(name);
  k.type = ConfigType::kBoolean;
  k.fallback = fallback;
  k.doc = std::move(doc);
  return k;
}

ConfigKey choice_key(std::string name, std::string fallback, std::vector<std::string> choices,
                     std::string doc) {
  ConfigKey k;
  k.name = std::move(name);
  k.type = ConfigType::kChoice;
  k.fallback = std::move(fallback);
  k.choices = std::move(choices);
  k.doc = std::move(doc);
  return k;
}

ConfigKey string_key(std::string name, std::string doc, bool required) {
  ConfigKey k;
  k.name = std::move(name);
  k.type = ConfigType::kString;
  k.doc = std::move(doc);
  k.required = required;
  return k;
}

ConfigKey value_key(std::string name, nlohmann::json fallback, std::string doc) {
  ConfigKey k;
  k.name = std::move(name);
  k.type = ConfigType::kValue;
  k.fallback = std::move(fallback);
  k.doc = std::move(doc);
  return k;
}

ConfigKey fixed_by_policy(ConfigKey key) {
  key.fixed_by_policy = true;
  return key;
}

ConfigKey policy_task(ConfigKey key) {
  key.policy_task = true;
  return key;
}

ConfigKey with_default_text(ConfigKey key, std::string text) {
  key.default_text = std::move(text);
  return key;
}

ConfigSchema::ConfigSchema(std::vector<ConfigKey> keys) : keys_(std::move(keys)) {
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (keys_[i].name == keys_[j].name)
        throw ApiMisuseError("config key '" + keys_[i].name + "' is declared twice");
    }
  }
}

const ConfigKey* ConfigSchema::find(std::string_view name) const {
  for (const ConfigKey& key : keys_)
    if (key.name == name) return &key;
  return nullptr;
}

const ConfigKey& ConfigSchema::at(std::string_view name) const {
  const ConfigKey* key = find(name);
  if (key == nullptr)
    throw ApiMisuseError("config key '" + std::string(name) + "' is not in the schema");
  return *key;
}

std::vector<std::string> ConfigSchema::names() const {
  std::vector<std::string> out;
  for (const ConfigKey& key : keys_)
    out.push_back(key.name);
  return out;
}

std::string describe_type(const ConfigKey& key) {
  switch (key.type) {
    case ConfigType::kInteger:
      return "an integer in [" + integer_text(key.min) + ", " + integer_text(key.max) + "]";
    case ConfigType::kNumber:
      return "a number in [" + number_text(key.min) + ", " + number_text(key.max) + "]";
    case ConfigType::kBoolean:
      return "true or false";
    case ConfigType::kString:
      return "a string";
    case ConfigType::kChoice:
      return "one of " + join(key.choices, ", ");
    case ConfigType::kValue:
      return "see the meaning";
  }
  return "";
}

nlohmann::json ConfigSchema::to_json() const {
  nlohmann::json out = nlohmann::json::array();
  for (const ConfigKey& key : keys_) {
    nlohmann::json j = {{"name", key.name},
                        {"type", type_name(key.type)},
                        {"default", key.fallback},
                        {"unit", key.unit},
                        {"doc", key.doc},
                        {"required", key.required},
                        {"fixed_by_policy", key.fixed_by_policy},
                        {"policy_task", key.policy_task},
                        {"accepts", describe_type(key)}};
    if (key.type == ConfigType::kInteger || key.type == ConfigType::kNumber) {
      j["min"] = key.min;
      j["max"] = key.max;
    }
    if (key.type == ConfigType::kChoice) j["choices"] = key.choices;
    if (!key.default_text.empty()) j["default_text"] = key.default_text;
    out.push_back(std::move(j));
  }
  return out;
}

std::string ConfigSchema::markdown() const {
  std::string out = "| key | accepts | default | meaning |\n|---|---|---|---|\n";
  for (const ConfigKey& key : keys_) {
    // Appended piece by piece: g++ 12 misreads chains of `"literal" + string` (-Wrestrict).
    std::string fallback = "required";
    if (!key.required) {
      fallback = key.default_text;
      if (fallback.empty()) fallback.append("`").append(key.fallback.dump()).append("`");
    }
    out.append("| `").append(key.name).append("` | ").append(describe_type(key));
    out.append(" | ").append(fallback).append(" | ").append(key.doc);
    if (!key.unit.empty()) out.append(" (").append(key.unit).append(")");
    if (key.fixed_by_policy || key.policy_task) out.append("; a learned policy sets it");
    out.append(" |\n");
  }
  return out;
}

nlohmann::json ConfigSchema::value_of_text(std::string_view name, std::string_view text,
                                           std::string_view context) const {
  if (find(name) == nullptr)
    throw UnknownNameError(std::string(context) + ": " +
                           unknown_name_message("key", name, names()));
  if (!nlohmann::json::accept(text)) return std::string(text);
  return parse_json_text(text, std::string(context) + ": " + std::string(name));
}

}  // namespace sysgym
