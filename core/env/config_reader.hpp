// Reads an env's (or a command's) JSON config key by key, with defaults and ranges (given, or
// taken from a ConfigSchema entry), and rejects keys nobody asked for. Every message starts with
// the context ("memtier-v0 config") and names the key, what was accepted and what was given.
//
//   ConfigReader reader(config, "memtier-v0 config");
//   int bins = reader.integer("bins", 64, 1, 4096);
//   reader.finish();  // throws ConfigError for any key not read above
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "env/config_schema.hpp"

namespace sysgym {

class ConfigReader {
 public:
  // Throws ConfigError unless `config` is a JSON object (null counts as an empty object).
  ConfigReader(const nlohmann::json& config, std::string context);

  std::int64_t integer(std::string_view key, std::int64_t fallback, std::int64_t min,
                       std::int64_t max);
  double number(std::string_view key, double fallback, double min, double max);
  bool boolean(std::string_view key, bool fallback);
  std::string string(std::string_view key, std::string fallback);
  // One of `allowed`; the error lists them and suggests the closest.
  std::string choice(std::string_view key, std::string fallback,
                     const std::vector<std::string>& allowed);
  // The key as its schema declares it (env/config_schema.hpp): default, range and choices.
  std::int64_t integer(const ConfigKey& key);
  double number(const ConfigKey& key);
  bool boolean(const ConfigKey& key);
  std::string string(const ConfigKey& key);
  std::string choice(const ConfigKey& key);

  // The raw value (or nullptr when absent), marked as read; for keys with their own parser.
  const nlohmann::json* raw(std::string_view key);
  // Records the effective value of a key read through raw().
  void resolve(std::string_view key, nlohmann::json value);

  // Throws ConfigError naming the first unknown key and the closest valid one.
  void finish() const;

  // Every key asked for, with the value in effect (defaults included).
  const nlohmann::json& resolved() const { return resolved_; }
  const std::string& context() const { return context_; }
  // "<context>: '<key>' <problem>" as a ConfigError.
  [[noreturn]] void fail(std::string_view key, std::string_view problem) const;

 private:
  const nlohmann::json* find(std::string_view key);

  nlohmann::json config_;
  std::string context_;
  std::vector<std::string> known_keys_;
  nlohmann::json resolved_ = nlohmann::json::object();
};

}  // namespace sysgym
