// An env's configuration declared once: every key with its type, unit, range, default and a
// line of documentation. The env's config parsing reads through it (ConfigReader overloads), and
// `sysgym describe`, the env pages' config tables, the web form and `--set KEY=VALUE` read it, so
// none of them restates a limit that could drift from the env's.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace sysgym {

enum class ConfigType {
  kInteger,  // a whole number in [min, max]
  kNumber,   // a real number in [min, max]
  kBoolean,
  kString,
  kChoice,  // one of `choices`
  kValue,   // any JSON value the env parses itself (sizes, ranges, "auto"); `doc` says which
};

struct ConfigKey {
  std::string name;
  ConfigType type = ConfigType::kString;
  nlohmann::json fallback;  // the default; null when there is none (see default_text)
  std::string unit;         // what a value means: "log2 bytes", "GB/s", "windows"
  std::string doc;          // one sentence
  double min = 0, max = 0;  // kInteger and kNumber
  std::vector<std::string> choices;
  std::string default_text;  // the default in words, when it depends on other keys or data
  bool required = false;
  // A learned policy's file fixes this key: its network reads observations and acts in the shape
  // the key gives (memtier: bins, action_mode, history, interval_distance, admission).
  bool fixed_by_policy = false;
  // A learned policy's file fixes this key because it says what the policy was trained to
  // achieve (inline: the objective and its size limit); a comparison with the policy runs every
  // policy on its value, so that all are scored alike.
  bool policy_task = false;
};

// Declaring keys (designated initializers would do, but g++ warns about every member left out).
// An integer key's bound as an int64: a double holds INT64_MAX only rounded up to 2^63, so bounds
// past +-9.2e18 saturate (a plain cast would be undefined behaviour).
std::int64_t integer_bound(double x);

ConfigKey integer_key(std::string name, std::int64_t fallback, double min, double max,
                      std::string doc, std::string unit = "");
ConfigKey number_key(std::string name, nlohmann::json fallback, double min, double max,
                     std::string doc, std::string unit = "");
ConfigKey boolean_key(std::string name, bool fallback, std::string doc);
ConfigKey choice_key(std::string name, std::string fallback, std::vector<std::string> choices,
                     std::string doc);
ConfigKey string_key(std::string name, std::string doc, bool required);
// A value the env parses itself (sizes, ranges, "auto"); `doc` says what it accepts.
ConfigKey value_key(std::string name, nlohmann::json fallback, std::string doc);
// The key with its default said in words (it depends on other keys or on the data).
ConfigKey with_default_text(ConfigKey key, std::string text);
ConfigKey fixed_by_policy(ConfigKey key);
ConfigKey policy_task(ConfigKey key);

class ConfigSchema {
 public:
  ConfigSchema() = default;
  // Throws ApiMisuseError for a key declared twice.
  explicit ConfigSchema(std::vector<ConfigKey> keys);

  const std::vector<ConfigKey>& keys() const { return keys_; }
  bool empty() const { return keys_.empty(); }
  // Throws ApiMisuseError for an undeclared key (a bug in the env, not the user's input).
  const ConfigKey& at(std::string_view name) const;
  const ConfigKey* find(std::string_view name) const;
  std::vector<std::string> names() const;

  // [{"name", "type", "default", "unit", "doc", "min", "max", "choices", "required"}, ...]
  nlohmann::json to_json() const;
  // A Markdown table: key | type and range | default | meaning.
  std::string markdown() const;

  // The value of `--set KEY=TEXT`: TEXT as JSON when it parses as JSON (numbers, true, null,
  // arrays, objects, quoted strings), else TEXT as a string. Throws UnknownNameError naming the
  // closest key for an undeclared one; the env's reader checks the value's type and range.
  nlohmann::json value_of_text(std::string_view key, std::string_view text,
                               std::string_view context) const;

 private:
  std::vector<ConfigKey> keys_;
};

// "an integer in [1, 65536]", "one of bins, discrete", "a number in [1e-06, 1000000]"...
std::string describe_type(const ConfigKey& key);

}  // namespace sysgym
