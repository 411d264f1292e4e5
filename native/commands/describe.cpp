// sysgym describe: an env's resolved config, spaces, observation layout, info keys, policies.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "catalog.hpp"
#include "commands/commands.hpp"

namespace sysgym::cli {
namespace {

struct DescribeArgs {
  std::string env = "memtier";
  std::string config;
  bool json = false;
};

void describe_command(const DescribeArgs& args) {
  nlohmann::json config =
      args.config.empty() ? nlohmann::json::object() : json_option(args.config, "--config");
  if (!config.contains("trace")) config["trace"] = "synth:phased:20000";
  const std::string id = catalog().envs.resolve(args.env);
  auto env = make_memtier(config);
  nlohmann::json policies = nlohmann::json::array();
  for (const std::string& name : catalog().policies.names()) {
    const auto& spec = catalog().policies.spec(name);
    policies.push_back({{"name", name},
                        {"oracle", spec.oracle},
                        {"needs_parameters", spec.needs_parameters},
                        {"summary", spec.summary}});
  }
  const nlohmann::json out = {{"id", id},
                              {"summary", catalog().envs.spec(id).summary},
                              {"config", env->config()},
                              {"facts", env->facts()},
                              {"observation_space", env->observation_space().to_string()},
                              {"action_space", env->action_space().to_string()},
                              {"observation_layout", env->describe_observation()},
                              {"info_keys", env->info_keys()},
                              {"policies", policies}};
  if (args.json) {
    std::printf("%s\n", out.dump(2).c_str());
    return;
  }
  std::printf("%s: %s\n\nconfig (resolved):\n", id.c_str(),
              out["summary"].get<std::string>().c_str());
  for (const auto& [key, value] : out["config"].items())
    std::printf("  %-24s %s\n", key.c_str(), value.dump().c_str());
  std::printf("\nfacts:\n");
  for (const auto& [key, value] : out["facts"].items())
    std::printf("  %-24s %s\n", key.c_str(), value.dump().c_str());
  std::printf(
      "\nobservation: %s\n  layout: hist[0..B-1], resident[0..B-1], hist_prev_k[0..B-1] for k = "
      "1..history,\n"
      "          free_capacity, progress, last_speedup, last_duration, capacity_share\naction: "
      "%s\ninfo keys:",
      env->observation_space().to_string().c_str(), env->action_space().to_string().c_str());
  for (const auto& key : env->info_keys())
    std::printf(" %s", key.c_str());
  std::printf("\n\npolicies (* = oracle):\n");
  for (const auto& p : policies) {
    std::printf("  %-24s %s\n",
                (p["name"].get<std::string>() + (p["oracle"].get<bool>() ? " *" : "")).c_str(),
                p["summary"].get<std::string>().c_str());
  }
}

}  // namespace

void add_describe_command(CLI::App& app) {
  auto args = std::make_shared<DescribeArgs>();
  CLI::App* command = app.add_subcommand("describe", "Show an env's config, spaces and policies");
  command->footer(
      "Examples:\n  sysgym describe memtier\n  sysgym describe memtier-v0 --config '{\"bins\": "
      "128, \"action_mode\": \"discrete\"}' --json\n"
      "Without a trace in --config, a small synthetic pair (synth:phased:20000) is used.");
  command->add_option("env", args->env, "Env id or name")->capture_default_str();
  command->add_option("--config", args->config, "Env config: JSON text or a JSON file");
  command->add_flag("--json", args->json, "Print one JSON object");
  command->callback([args] { describe_command(*args); });
}

}  // namespace sysgym::cli
