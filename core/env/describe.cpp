#include "env/describe.hpp"

#include <cstdio>
#include <optional>
#include <vector>

#include "base/append_format.hpp"

namespace sysgym {
namespace {

// "hist[0]" .. "hist[63]" as "hist[0..63]": the layout of a 1000-element observation in a line.
std::vector<std::string> compact_layout(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  std::string stem;
  std::size_t first = 0, last = 0;
  auto flush = [&] {
    if (stem.empty()) return;
    out.push_back(stem + "[" + std::to_string(first) +
                  (last > first ? ".." + std::to_string(last) : "") + "]");
    stem.clear();
  };
  for (const std::string& name : names) {
    const std::size_t open = name.rfind('[');
    std::size_t index = 0;
    const bool indexed = open != std::string::npos && name.back() == ']' &&
                         std::sscanf(name.c_str() + open, "[%zu]", &index) == 1;
    if (indexed && name.compare(0, open, stem) == 0 && stem.size() == open && index == last + 1) {
      last = index;
      continue;
    }
    flush();
    if (indexed) {
      stem = name.substr(0, open);
      first = last = index;
    } else {
      out.push_back(name);
    }
  }
  flush();
  return out;
}

}  // namespace

nlohmann::json describe_report(const EnvSpec& spec, const Env& env, const PolicyRegistry& policies,
                               const std::vector<std::string>& agents) {
  nlohmann::json policy_rows = nlohmann::json::array();
  for (const std::string& name : policies.names(spec.id)) {
    const auto& p = policies.spec(name, spec.id);
    policy_rows.push_back({{"name", name},
                           {"oracle", p.oracle},
                           {"needs_parameters", p.needs_parameters},
                           {"summary", p.summary}});
  }
  const std::optional<EntityLayout> entities = env.entity_layout();
  return {{"id", spec.id},
          {"summary", spec.summary},
          {"config", env.config()},
          {"facts", env.facts()},
          {"observation_space", env.observation_space().to_string()},
          {"action_space", env.action_space().to_string()},
          {"observation_layout", env.observation_layout()},
          {"info_keys", env.info_keys()},
          {"primary_metric", env.primary_metric()},
          {"entity_layout", entities ? entities->to_json() : nlohmann::json()},
          {"config_schema", spec.schema.to_json()},
          {"policies", policy_rows},
          {"agents", agents}};
}

std::string describe_text(const EnvSpec& spec, const Env& env, const nlohmann::json& report) {
  std::string out;
  append_format(out, "%s: %s\n\nconfig (resolved; key, value, what it accepts and means):\n",
                spec.id.c_str(), spec.summary.c_str());
  for (const auto& [key, value] : report["config"].items()) {
    append_format(out, "  %-24s %-20s", key.c_str(), value.dump().c_str());
    if (const ConfigKey* k = spec.schema.find(key))
      append_format(out, " %s: %s", describe_type(*k).c_str(), k->doc.c_str());
    out += '\n';
  }
  out += "\nfacts:\n";
  for (const auto& [key, value] : report["facts"].items())
    append_format(out, "  %-24s %s\n", key.c_str(), value.dump().c_str());
  append_format(out, "\nobservation: %s\n  layout:", env.observation_space().to_string().c_str());
  for (const std::string& part : compact_layout(env.observation_layout()))
    append_format(out, " %s", part.c_str());
  if (const std::optional<EntityLayout> entities = env.entity_layout()) {
    append_format(out, "\n  entities: %d %ss, %d channels each (state: channel %d)",
                  entities->count, entities->entity.c_str(), entities->channels,
                  entities->state_channel);
    if (!entities->verbs.empty()) {
      out += ", discrete verbs:";
      for (const std::string& verb : entities->verbs)
        append_format(out, " %s", verb.c_str());
    }
  }
  append_format(out, "\naction: %s\ninfo keys:", env.action_space().to_string().c_str());
  for (const auto& key : env.info_keys())
    append_format(out, " %s", key.c_str());
  out += "\nagents that train on it:";
  for (const auto& agent : report["agents"])
    append_format(out, " %s", agent.get<std::string>().c_str());
  out += "\n\npolicies (* = oracle):\n";
  for (const auto& p : report["policies"]) {
    append_format(out, "  %-24s %s\n",
                  (p["name"].get<std::string>() + (p["oracle"].get<bool>() ? " *" : "")).c_str(),
                  p["summary"].get<std::string>().c_str());
  }
  return out;
}

}  // namespace sysgym
