// sysgym list: the registered envs. sysgym describe: any env's resolved config, facts, spaces,
// observation layout, info keys and the policies that run on it.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"

namespace sysgym::cli {
namespace {

struct DescribeArgs {
  EnvFlags env;
  bool json = false;
};

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

void describe_command(const DescribeArgs& args) {
  // Without ENV: the first registered env.
  const std::string id = args.env.named() ? args.env.id() : catalog().envs.ids().front();
  const EnvSpec& spec = catalog().envs.spec(id);
  const auto env = catalog().envs.make(id, args.env.config_over(spec, spec.example_config));
  nlohmann::json policies = nlohmann::json::array();
  for (const std::string& name : catalog().policies.names(id)) {
    const auto& p = catalog().policies.spec(name, id);
    policies.push_back({{"name", name},
                        {"oracle", p.oracle},
                        {"needs_parameters", p.needs_parameters},
                        {"summary", p.summary}});
  }
  const std::optional<EntityLayout> entities = env->entity_layout();
  const nlohmann::json out = {{"id", id},
                              {"summary", spec.summary},
                              {"config", env->config()},
                              {"facts", env->facts()},
                              {"observation_space", env->observation_space().to_string()},
                              {"action_space", env->action_space().to_string()},
                              {"observation_layout", env->observation_layout()},
                              {"info_keys", env->info_keys()},
                              {"primary_metric", env->primary_metric()},
                              {"entity_layout", entities ? entities->to_json() : nlohmann::json()},
                              {"config_schema", spec.schema.to_json()},
                              {"policies", policies}};
  if (args.json) {
    std::printf("%s\n", out.dump(2).c_str());
    return;
  }
  std::printf("%s: %s\n\nconfig (resolved; key, value, what it accepts and means):\n", id.c_str(),
              spec.summary.c_str());
  for (const auto& [key, value] : out["config"].items()) {
    std::printf("  %-24s %-20s", key.c_str(), value.dump().c_str());
    if (const ConfigKey* k = spec.schema.find(key))
      std::printf(" %s: %s", describe_type(*k).c_str(), k->doc.c_str());
    std::printf("\n");
  }
  std::printf("\nfacts:\n");
  for (const auto& [key, value] : out["facts"].items())
    std::printf("  %-24s %s\n", key.c_str(), value.dump().c_str());
  std::printf("\nobservation: %s\n  layout:", env->observation_space().to_string().c_str());
  for (const std::string& part : compact_layout(env->observation_layout()))
    std::printf(" %s", part.c_str());
  if (entities) {
    std::printf("\n  entities: %d %ss, %d channels each (state: channel %d)", entities->count,
                entities->entity.c_str(), entities->channels, entities->state_channel);
    if (!entities->verbs.empty()) {
      std::printf(", discrete verbs:");
      for (const std::string& verb : entities->verbs)
        std::printf(" %s", verb.c_str());
    }
  }
  std::printf("\naction: %s\ninfo keys:", env->action_space().to_string().c_str());
  for (const auto& key : env->info_keys())
    std::printf(" %s", key.c_str());
  std::printf("\n\npolicies (* = oracle):\n");
  for (const auto& p : policies) {
    std::printf("  %-24s %s\n",
                (p["name"].get<std::string>() + (p["oracle"].get<bool>() ? " *" : "")).c_str(),
                p["summary"].get<std::string>().c_str());
  }
}

void list_command(bool json) {
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& id : catalog().envs.ids())
    out.push_back({{"id", id}, {"summary", catalog().envs.spec(id).summary}});
  if (json) {
    std::printf("%s\n", out.dump(2).c_str());
    return;
  }
  for (const auto& env : out) {
    std::printf("%-16s %s\n", env["id"].get<std::string>().c_str(),
                env["summary"].get<std::string>().c_str());
  }
}

}  // namespace

void add_list_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand("list", "List the registered envs");
  command->footer("Example:\n  sysgym list\nThen: sysgym describe ID, sysgym check ID.");
  command->add_flag("--json", *json, "Print a JSON list of {id, summary}");
  command->callback([json] { list_command(*json); });
}

void add_describe_command(CLI::App& app) {
  auto args = std::make_shared<DescribeArgs>();
  CLI::App* command = app.add_subcommand("describe", "Show an env's config, spaces and policies");
  command->footer(
      "Examples:\n  sysgym describe memtier\n  sysgym describe memtier-v0 --config '{\"bins\": "
      "128, \"action_mode\": \"discrete\"}' --json\n  sysgym describe memtier --set bins=16 --set "
      "hbm_capacity=10%\n  sysgym describe memtier bins=16 hbm_capacity=10%\n"
      "Keys missing from --config come from the env's example config (memtier: a small synthetic "
      "trace, synth:phased:5000, in episodes of 200 windows).");
  add_env_flags(*command, args->env, true);
  command->add_flag("--json", args->json, "Print one JSON object");
  command->callback([args] { describe_command(*args); });
}

}  // namespace sysgym::cli
