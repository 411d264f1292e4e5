// sysgym eval: trained policies next to every baseline and oracle, one comparison table per
// config (core/agents/evaluation).
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "agents/evaluation.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"
#include "json_output.hpp"
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

void eval_command(const EvalArgs& args) {
  agents::EvaluationRequest request;
  for (const std::string& path : args.policies)
    request.trained.push_back(agents::trained_policy(json_option(path, "--policy"), path));
  if (args.env.named()) request.env = args.env.env;
  request.config = args.env.given_config();
  request.settings = args.env.all_settings();
  request.vary = args.vary.texts;
  request.baselines = args.baselines;
  request.seed = args.seed;
  ProgressBar bar("evaluating");
  const agents::Evaluation evaluation = agents::evaluate_policies(
      catalog().envs, catalog().policies, request,
      [&bar](std::uint64_t done, std::uint64_t total) { bar.update(done, total); });
  if (args.json) {
    print_json(evaluation.tables);
  } else {
    std::fputs(agents::evaluation_text(catalog().envs, evaluation).c_str(), stdout);
  }
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
      "env settings without the keys that shape a policy's network (as `sysgym compare` runs\n"
      "them); each learned policy adds its own. Every row runs on what the policies were trained\n"
      "for (inline's objective: they must agree), and no setting may contradict a policy's.\n"
      "ENV, when given, must be the env the policies were trained on.");
  add_env_flags(*command, args->env, true);
  add_vary_flag(*command, args->vary);
  command->add_option("--policy", args->policies, "A policy file from `sysgym train`; repeatable")
      ->required()
      ->allow_extra_args(false);
  command->add_option("--baselines", args->baselines, "Only these baselines (default: all)")
      ->delimiter(',');
  add_integer_flag(*command, "--seed", args->seed, "Episode seed", kSeedRange);
  add_json_flag(*command, args->json, "the tables ({config, rows} per table)");
  command->callback([args] { eval_command(*args); });
}

}  // namespace sysgym::cli
