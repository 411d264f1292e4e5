// sysgym eval: trained policies next to every baseline and oracle, on whole episodes of the
// configs a user names (held-out traces, other capacities ...), one comparison table each.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "agents/learned_policy.hpp"
#include "agents/policy_file.hpp"
#include "base/error.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"
#include "env/report_text.hpp"
#include "env/reports.hpp"
#include "numeric_flags.hpp"
#include "progress_bar.hpp"

namespace sysgym::cli {
namespace {

struct EvalArgs {
  EnvFlags env;
  VaryFlags vary;
  std::vector<std::string> policies;  // policy files
  std::vector<std::string> baselines;
  std::uint64_t seed = 0;
  bool json = false;
};

struct Trained {
  std::string path;
  nlohmann::json text;  // the file, as the learned policy's parameters
  agents::PolicyFile file;
};

std::vector<Trained> read_policies(const EvalArgs& args) {
  std::vector<Trained> out;
  for (const std::string& path : args.policies) {
    nlohmann::json text = json_option(path, "--policy");
    try {
      agents::PolicyFile file = agents::PolicyFile::from_json(text);
      out.push_back({path, std::move(text), std::move(file)});
    } catch (const ConfigError& e) {
      throw ConfigError(path + ": " + e.what());
    }
    if (out.back().file.env_id != out.front().file.env_id) {
      throw ConfigError("--policy " + path + " was trained on " + out.back().file.env_id + ", " +
                        out.front().path + " on " + out.front().file.env_id +
                        ": evaluate them separately");
    }
  }
  return out;
}

// The config every row shares: the first policy's training settings without the keys each
// policy fixes for itself (so baselines run as `sysgym compare` runs them), then the user's.
nlohmann::json shared_config(const EnvSpec& spec, const Trained& first, const EnvFlags& env) {
  nlohmann::json config = first.file.env_config;
  for (const std::string& key : spec.schema.names()) {
    if (spec.schema.at(key).fixed_by_policy) config.erase(key);
  }
  return env.config_over(spec, std::move(config));
}

// The keys that tell the tables apart (varied, or split by the env's evaluation hook).
std::vector<std::string> distinguishing_keys(const std::vector<nlohmann::json>& configs) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : configs.front().items()) {
    for (const nlohmann::json& c : configs) {
      if (c.value(key, nlohmann::json()) != value) {
        keys.push_back(key);
        break;
      }
    }
  }
  return keys;
}

nlohmann::json evaluate(const EnvSpec& spec, const nlohmann::json& config,
                        const std::vector<Trained>& trained,
                        const std::vector<std::string>& baselines, std::uint64_t seed) {
  std::vector<ComparedPolicy> entries;
  for (const Trained& t : trained) {
    nlohmann::json own = config;
    own.update(agents::policy_base_config("learned", t.text, spec));
    entries.push_back(
        {"learned", [&spec, own] { return spec.factory(own); }, t.text, "learned:" + t.path});
  }
  for (const std::string& name : baselines)
    entries.push_back({name, [&spec, config] { return spec.factory(config); }});
  return compare_report(entries, catalog().policies, seed);
}

void eval_command(const EvalArgs& args) {
  const std::vector<Trained> trained = read_policies(args);
  const EnvSpec& spec = catalog().envs.spec(trained.front().file.env_id);
  if (args.env.named() && args.env.id() != spec.id) {
    throw ConfigError("the policies were trained on " + spec.id + ", not " + args.env.id());
  }
  const std::vector<std::string> baselines =
      args.baselines.empty() ? catalog().policies.standalone_names(spec.id) : args.baselines;
  std::vector<nlohmann::json> configs;
  for (const nlohmann::json& c :
       args.vary.grid(spec, shared_config(spec, trained.front(), args.env))) {
    for (nlohmann::json& whole : spec.evaluation_configs(c))
      configs.push_back(std::move(whole));
  }
  nlohmann::json report = nlohmann::json::array();
  ProgressBar bar("evaluating");
  for (std::size_t i = 0; i < configs.size(); ++i) {
    report.push_back({{"config", configs[i]},
                      {"rows", evaluate(spec, configs[i], trained, baselines, args.seed)}});
    bar.update(i + 1, configs.size());
  }
  if (args.json) {
    std::printf("%s\n", report.dump(2).c_str());
    return;
  }
  const std::vector<std::string> keys = distinguishing_keys(configs);
  for (const nlohmann::json& table : report) {
    std::string heading = spec.id;
    for (const std::string& key : keys) {
      const nlohmann::json value = table["config"].value(key, nlohmann::json());
      heading += " " + key + "=" +
                 (value.is_string() ? value.get<std::string>() : report_value_text(key, value));
    }
    std::fputs(comparison_text(heading, *spec.factory(table["config"]), table["rows"]).c_str(),
               stdout);
  }
  std::fputs(comparison_footer_text(*spec.factory(configs.front())).c_str(), stdout);
}

}  // namespace

void add_eval_command(CLI::App& app) {
  auto args = std::make_shared<EvalArgs>();
  CLI::App* command =
      app.add_subcommand("eval", "Evaluate trained policies against every baseline and oracle");
  command->footer(
      "Examples:\n"
      "  sysgym eval --policy dqn.json --vary trace=lammps,hpcc-stream\n"
      "  sysgym eval memtier --policy dqn.json --policy ppo.json trace=synth:random --vary "
      "hbm_capacity=10%,50% --json\n"
      "Every config runs whole (the env's evaluation settings: memtier from the first window to\n"
      "the last, a trained capacity range at both ends). Baselines run on the first policy's\n"
      "env settings without the keys a policy fixes (as `sysgym compare` runs them); each\n"
      "learned policy adds its own. ENV, when given, must be the env the policies were trained "
      "on.");
  add_env_flags(*command, args->env, true);
  add_vary_flag(*command, args->vary);
  command->add_option("--policy", args->policies, "A policy file from `sysgym train`; repeatable")
      ->required()
      ->allow_extra_args(false);
  command->add_option("--baselines", args->baselines, "Only these baselines (default: all)")
      ->delimiter(',');
  add_integer_flag(*command, "--seed", args->seed, "Episode seed", kSeedRange);
  command->add_flag("--json", args->json, "Print a JSON list: {config, rows} per table");
  command->callback([args] { eval_command(*args); });
}

}  // namespace sysgym::cli
