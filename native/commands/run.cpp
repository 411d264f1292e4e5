// sysgym run: one episode of one policy on any registered env.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "agents/learned_policy.hpp"
#include "base/error.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"
#include "env/episode.hpp"
#include "env/report_text.hpp"
#include "env/reports.hpp"
#include "files.hpp"
#include "json_output.hpp"
#include "numeric_flags.hpp"
#include "output_flags.hpp"

namespace sysgym::cli {
namespace {

struct RunArgs {
  EnvFlags env;
  std::string policy;
  std::string policy_config;
  std::string record;
  std::uint64_t seed = 0;
  bool json = false;
};

// The env config: --config, --set and KEY=VALUE over a learned policy's contract (the spaces it
// was trained on, what it was trained to achieve), which they may not contradict.
nlohmann::json env_config(const RunArgs& args, const std::string& id,
                          const nlohmann::json& policy_config) {
  return agents::config_for_policy(args.policy, policy_config, catalog().envs.spec(id),
                                   args.env.config_over(nlohmann::json::object()));
}

void run_command(const RunArgs& args) {
  const std::string id = args.env.id();
  const nlohmann::json policy_config = args.policy_config.empty()
                                           ? nlohmann::json::object()
                                           : json_option(args.policy_config, "--policy-config");
  auto policy = catalog().policies.make(args.policy, id, policy_config);
  auto env = catalog().envs.make(id, env_config(args, id, policy_config));
  const EpisodeRecord episode =
      run_episode(*env, *policy, args.policy, args.seed, !args.record.empty());
  if (!args.record.empty()) write_json_file(args.record, episode_to_json(episode, *env));
  const nlohmann::json report = run_report(episode, *env);
  if (args.json) {
    print_json(report);
    return;
  }
  std::fputs(run_report_text(report, id, env->primary_metric()).c_str(), stdout);
  if (!args.record.empty())
    std::printf("recorded %zu steps in %s\n", episode.steps.size(), args.record.c_str());
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* command = app.add_subcommand("run", "Run one episode of a policy on an env");
  command->footer(
      "Examples:\n"
      "  sysgym run memtier trace=lammps hbm_capacity=10% --policy lru\n"
      "  sysgym run memtier-v0 --config '{\"trace\": \"pair.bin\", \"bins\": 128}' \\\n"
      "      --policy static-oracle --record episode.json --json\n"
      "  sysgym run memtier --policy learned --policy-config data/policies/memtier/dqn-dense.json "
      "\\\n"
      "      trace=xz hbm_capacity=10%\n"
      "Config keys: `sysgym describe ENV`. A learned policy sets the keys its file was trained\n"
      "with that shape its network or say what it was trained for (`describe` marks them); a\n"
      "setting that contradicts one is an error.");
  add_env_flags(*command, args->env);
  command->add_option("--policy", args->policy, "Policy name")->required();
  command->add_option("--policy-config", args->policy_config,
                      "Policy parameters: JSON text or a JSON file (learned: the policy file)");
  add_integer_flag(*command, "--seed", args->seed, "Episode seed", kSeedRange);
  add_output_option(*command, "--record", args->record,
                    "Write the episode (actions, rewards, infos, summary) as JSON");
  add_json_flag(*command, args->json, "the report");
  command->callback([args] { run_command(*args); });
}

}  // namespace sysgym::cli
