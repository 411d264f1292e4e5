#include "env/config_reader.hpp"

#include <algorithm>
#include <cmath>

#include "base/error.hpp"
#include "base/names.hpp"
#include "base/quote.hpp"

namespace sysgym {

ConfigReader::ConfigReader(const nlohmann::json& config, std::string context)
    : config_(config.is_null() ? nlohmann::json::object() : config), context_(std::move(context)) {
  if (!config_.is_object()) {
    throw ConfigError(context_ + ": expected a JSON object, got " +
                      std::string(config_.type_name()));
  }
}

void ConfigReader::fail(std::string_view key, std::string_view problem) const {
  throw ConfigError(context_ + ": " + quote(key) + " " + std::string(problem));
}

const nlohmann::json* ConfigReader::find(std::string_view key) {
  known_keys_.emplace_back(key);
  const auto it = config_.find(std::string(key));
  return it == config_.end() ? nullptr : &*it;
}

std::int64_t ConfigReader::integer(std::string_view key, std::int64_t fallback, std::int64_t min,
                                   std::int64_t max) {
  const std::string range =
      "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  std::int64_t value = fallback;
  if (const nlohmann::json* j = find(key)) {
    const bool too_large =
        j->is_number_unsigned() && j->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX);
    if (j->is_number_integer() && !too_large) {
      value = j->get<std::int64_t>();
    } else if (j->is_number_float() && std::floor(j->get<double>()) == j->get<double>() &&
               std::fabs(j->get<double>()) < 9.0e15) {
      value = static_cast<std::int64_t>(j->get<double>());
    } else {
      fail(key, "must be " + range + ", got " + j->dump());
    }
    if (value < min || value > max) fail(key, "must be " + range + ", got " + j->dump());
  }
  resolved_[std::string(key)] = value;
  return value;
}

double ConfigReader::number(std::string_view key, double fallback, double min, double max) {
  double value = fallback;
  if (const nlohmann::json* j = find(key)) {
    if (!j->is_number()) fail(key, "must be a number, got " + j->dump());
    value = j->get<double>();
    if (!(value >= min && value <= max)) {
      nlohmann::json lo = min, hi = max;
      fail(key, "must be a number in [" + lo.dump() + ", " + hi.dump() + "], got " + j->dump());
    }
  }
  resolved_[std::string(key)] = value;
  return value;
}

bool ConfigReader::boolean(std::string_view key, bool fallback) {
  bool value = fallback;
  if (const nlohmann::json* j = find(key)) {
    if (!j->is_boolean()) fail(key, "must be true or false, got " + j->dump());
    value = j->get<bool>();
  }
  resolved_[std::string(key)] = value;
  return value;
}

std::string ConfigReader::string(std::string_view key, std::string fallback) {
  std::string value = std::move(fallback);
  if (const nlohmann::json* j = find(key)) {
    if (!j->is_string()) fail(key, "must be a string, got " + j->dump());
    value = j->get<std::string>();
  }
  resolved_[std::string(key)] = value;
  return value;
}

std::string ConfigReader::choice(std::string_view key, std::string fallback,
                                 const std::vector<std::string>& allowed) {
  std::string value = string(key, std::move(fallback));
  if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
    std::string message = "must be one of " + join(allowed, ", ") + ", got " + quote(value);
    const std::string suggestion = closest_name(value, allowed);
    if (!suggestion.empty()) message += " (did you mean " + quote(suggestion) + "?)";
    fail(key, message);
  }
  return value;
}

std::int64_t ConfigReader::integer(const ConfigKey& key) {
  return integer(key.name, key.fallback.is_number() ? key.fallback.get<std::int64_t>() : 0,
                 integer_bound(key.min), integer_bound(key.max));
}

double ConfigReader::number(const ConfigKey& key) {
  return number(key.name, key.fallback.is_number() ? key.fallback.get<double>() : 0.0, key.min,
                key.max);
}

bool ConfigReader::boolean(const ConfigKey& key) {
  return boolean(key.name, key.fallback.is_boolean() && key.fallback.get<bool>());
}

std::string ConfigReader::string(const ConfigKey& key) {
  return string(key.name, key.fallback.is_string() ? key.fallback.get<std::string>() : "");
}

std::string ConfigReader::choice(const ConfigKey& key) {
  return choice(key.name, key.fallback.is_string() ? key.fallback.get<std::string>() : "",
                key.choices);
}

const nlohmann::json* ConfigReader::raw(std::string_view key) {
  return find(key);
}

void ConfigReader::resolve(std::string_view key, nlohmann::json value) {
  resolved_[std::string(key)] = std::move(value);
}

void ConfigReader::finish() const {
  for (const auto& [key, value] : config_.items()) {
    if (std::find(known_keys_.begin(), known_keys_.end(), key) != known_keys_.end()) continue;
    std::vector<std::string> valid = known_keys_;
    std::sort(valid.begin(), valid.end());
    valid.erase(std::unique(valid.begin(), valid.end()), valid.end());
    throw ConfigError(context_ + ": " + unknown_name_message("key", key, valid));
  }
}

}  // namespace sysgym
