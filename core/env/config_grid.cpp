#include "env/config_grid.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/quote.hpp"

namespace sysgym {
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

std::vector<nlohmann::json> config_grid(const EnvSpec& spec, const nlohmann::json& base,
                                        const std::vector<std::string>& vary) {
  std::vector<nlohmann::json> configs = {base};
  std::vector<std::string> seen;
  for (const std::string& text : vary) {
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

}  // namespace sysgym
