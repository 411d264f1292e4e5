// sysgym eval: trained policies next to every baseline and oracle, one comparison table per
// config (core/agents/evaluation).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "agents/evaluation.hpp"
#include "agents/held_out.hpp"
#include "agents/training_files.hpp"
#include "base/error.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"
#include "data_files.hpp"
#include "json_output.hpp"
#include "machine.hpp"
#include "numeric_flags.hpp"
#include "progress_bar.hpp"
#include "thread_pool.hpp"

namespace sysgym::cli {
namespace {

struct EvalArgs {
  EnvFlags env;
  VaryFlags vary;
  std::vector<std::string> policies;  // policy files
  std::vector<std::string> baselines;
  std::string split;  // "" unless --split
  std::uint64_t seed = 0;
  std::optional<std::uint64_t> seeds;
  std::optional<std::size_t> threads;
  bool json = false;
};

// Runs are independent and pooled in order, so the threads change how long, not what.
std::size_t threads_of(const EvalArgs& args) {
  return args.threads.value_or(std::max(1u, std::thread::hardware_concurrency()));
}

ProgressFn bar_callback(ProgressBar& bar) {
  return [&bar](std::uint64_t done, std::uint64_t total) { bar.update(done, total); };
}

// The family of an env id: memtier-v0 -> memtier, whose manifest is policies/memtier/.
std::filesystem::path manifest_path(const std::string& env_id) {
  const std::filesystem::path data = shipped_data_dir();
  const std::string family = env_id.substr(0, env_id.rfind("-v"));
  if (data.empty())
    throw ConfigError("--split needs the shipped data folder (policies/" + family +
                      "/manifest.json), which is not beside this sysgym: set SYSGYM_DATA");
  return data / "policies" / family / "manifest.json";
}

// The held-out protocol: the family's manifest names the split, its grid and its policies.
void split_command(const EvalArgs& args) {
  if (!args.vary.texts.empty() || !args.env.all_settings().empty() ||
      args.env.given_config() != nullptr) {
    throw ConfigError(
        "--split runs the settings its manifest gives; leave out --vary, --config and KEY=VALUE "
        "(or evaluate without --split)");
  }
  std::string env_id;
  if (args.env.named()) {
    env_id = args.env.id();
  } else if (!args.policies.empty()) {
    env_id = agents::trained_policy(json_option(args.policies.front(), "--policy"),
                                    args.policies.front())
                 .file.env_id;
  } else {
    throw ConfigError("name the env whose split to evaluate: sysgym eval memtier --split " +
                      args.split);
  }
  const std::filesystem::path manifest = manifest_path(env_id);
  agents::SplitRequest request;
  request.protocol = agents::split_protocol(json_option(manifest.string(), "the manifest"),
                                            args.split, manifest.string());
  if (args.policies.empty()) {
    for (const agents::ShippedPolicy& p : request.protocol.policies) {
      for (const std::string& file : p.files) {
        const std::string path = (manifest.parent_path() / file).string();
        agents::TrainedPolicy t = agents::trained_policy(json_option(path, "--policy"), path);
        t.row = "learned:" + p.files.front();
        request.trained.push_back(std::move(t));
      }
    }
  } else {
    for (const std::string& path : args.policies)
      request.trained.push_back(agents::trained_policy(json_option(path, "--policy"), path));
  }
  for (const agents::TrainedPolicy& t : request.trained) {
    if (t.file.env_id != env_id)
      throw ConfigError("--policy " + t.path + " was trained on " + t.file.env_id + ", not " +
                        env_id);
  }
  request.baselines = args.baselines;
  request.seed = args.seed;
  request.seeds = args.seeds.value_or(3);
  ThreadPool pool(threads_of(args));
  if (threads_of(args) > 1) request.parallel = pool.as_parallel_for();
  ProgressBar bar("evaluating the " + args.split + " split");
  nlohmann::json result =
      agents::evaluate_split(catalog().envs, catalog().policies, request, bar_callback(bar));
  if (args.json) {
    result.update(run_facts());
    print_json(result);
  } else {
    std::fputs(agents::split_text(catalog().envs, result).c_str(), stdout);
  }
}

void eval_command(const EvalArgs& args) {
  if (!args.split.empty()) return split_command(args);
  if (args.policies.empty()) throw CLI::RequiredError("--policy");
  agents::EvaluationRequest request;
  for (const std::string& path : args.policies)
    request.trained.push_back(agents::trained_policy(json_option(path, "--policy"), path));
  if (args.env.named()) request.env = args.env.env;
  request.config = args.env.given_config();
  request.settings = args.env.all_settings();
  request.vary = args.vary.texts;
  request.baselines = args.baselines;
  request.seed = args.seed;
  request.seeds = args.seeds.value_or(1);
  ThreadPool pool(threads_of(args));
  if (threads_of(args) > 1) request.parallel = pool.as_parallel_for();
  ProgressBar bar("evaluating");
  const agents::Evaluation evaluation =
      agents::evaluate_policies(catalog().envs, catalog().policies, request, bar_callback(bar));
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
      "ENV, when given, must be the env the policies were trained on.\n"
      "\n"
      "The held-out protocol, for any family:\n"
      "  sysgym eval tensorplace --split held-out\n"
      "runs the family's shipped policies (data/policies/FAMILY/manifest.json, or the --policy\n"
      "files), every baseline, search and oracle on each member of the split at each setting the\n"
      "manifest gives, with 3 episode seeds; each table pools its runs (seeds, a policy's "
      "training\n"
      "seeds, a problem set's problems): the mean, min and max of the primary metric. The summary\n"
      "says where each learned policy stands against the best policy that neither learns nor\n"
      "knows the future. --json adds the date and the machine.");
  add_env_flags(*command, args->env, true);
  add_vary_flag(*command, args->vary);
  command
      ->add_option("--policy", args->policies,
                   "A policy file from `sysgym train`; repeatable (with --split: default the "
                   "shipped ones)")
      ->allow_extra_args(false);
  command->add_option("--split", args->split,
                      "Evaluate on the family manifest's split: train or held-out");
  command->add_option("--baselines", args->baselines, "Only these baselines (default: all)")
      ->delimiter(',');
  add_integer_flag(*command, "--seed", args->seed, "Episode seed (the first, with --seeds)",
                   kSeedRange);
  command
      ->add_option_function<std::string>(
          "--seeds",
          [args](const std::string& text) {
            args->seeds = parse_integer(text, "--seeds", agents::kEvalSeedsRange);
          },
          "Episodes per row, seeds SEED, SEED + 1, ... pooled (default 1; 3 with --split)")
      ->type_name("UINT");
  command
      ->add_option_function<std::string>(
          "--threads",
          [args](const std::string& text) {
            args->threads = parse_integer(text, "--threads", agents::kTrainThreadsRange);
          },
          "Threads running the episodes (default: one per core; the results do not depend on it)")
      ->type_name("UINT");
  add_json_flag(*command, args->json, "the tables ({config, rows} per table)");
  command->callback([args] { eval_command(*args); });
}

}  // namespace sysgym::cli
