// sysgym train: a DQN or PPO agent on any env over a grid of configs (--vary), stepped on
// threads; writes a policy file and the learning curve.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "agents/trainer.hpp"
#include "agents/training_files.hpp"
#include "base/error.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"
#include "distributed/collective.hpp"
#include "files.hpp"
#include "json_output.hpp"
#include "numeric_flags.hpp"
#include "output_flags.hpp"
#include "thread_pool.hpp"

namespace sysgym::cli {
namespace {

struct TrainArgs {
  EnvFlags env;
  VaryFlags vary;
  std::string agent;  // empty: the env's (agents/trainer.hpp)
  std::string agent_config;
  std::int64_t steps = 200000;
  std::size_t envs = 0;
  std::size_t threads = 1;
  std::uint64_t seed = 0;
  std::int64_t curve_every = 5000;
  std::int64_t checkpoint_every = 0;
  std::string resume;
  std::string curve;
  std::string output;
  bool distributed = false;
};

// What every rank of a --distributed job must have been given alike.
nlohmann::json job_of(const agents::TrainerOptions& options, const TrainArgs& args) {
  return {{"--agent", options.agent},        {"--agent-config", options.agent_config},
          {"env", options.env_id},           {"env configs", options.env_configs},
          {"--seed", options.seed},          {"--curve-every", options.curve_every},
          {"--steps", args.steps},           {"--checkpoint-every", args.checkpoint_every},
          {"--resume", !args.resume.empty()}};
}

void train(TrainArgs args, agents::Collective* collective) {
  if (args.resume.empty() && !args.env.named()) {
    throw ConfigError(
        "name the env to train on (`sysgym train memtier ...`), or --resume a "
        "training state");
  }
  agents::TrainerOptions options;
  std::optional<agents::ResumedTraining> resumed;
  if (!args.resume.empty()) {
    const MappedFile file(args.resume);
    resumed = agents::read_training_state(file.bytes(), args.resume);
    options = resumed->options;
    args.agent = options.agent;
    args.vary.texts = resumed->vary;
  } else {
    options.agent = args.agent;
    options.agent_config = args.agent_config.empty()
                               ? nlohmann::json::object()
                               : json_option(args.agent_config, "--agent-config");
    options.env_id = args.env.id();
    options.env_configs =
        agents::training_configs(args.vary.grid(catalog().envs.spec(options.env_id),
                                                args.env.config_over(nlohmann::json::object())),
                                 args.envs);
    options.seed = args.seed;
    options.curve_every = args.curve_every;
  }
  // One rank of an MPI job: only rank 0 prints and writes files.
  if (collective != nullptr) check_ranks_match(*collective, job_of(options, args));
  const bool writes = collective == nullptr || collective->rank() == 0;
  ThreadPool pool(args.threads);
  agents::Trainer trainer(catalog().envs, options,
                          args.threads > 1 ? pool.as_parallel_for() : ParallelFor{}, collective);
  args.agent = trainer.agent();
  if (resumed) {
    agents::resume_training(trainer, *resumed, args.resume);
    if (writes)
      std::fprintf(stderr, "resumed %s at %lld env steps from %s\n", args.agent.c_str(),
                   static_cast<long long>(trainer.env_steps()), args.resume.c_str());
  }
  const auto start = std::chrono::steady_clock::now();
  const bool terminal = stderr_is_terminal();
  const std::int64_t resumed_at = trainer.env_steps();
  std::int64_t next_checkpoint = args.checkpoint_every;
  trainer.train_until(args.steps, [&](const agents::CurvePoint& p) {
    if (!writes) return;
    // A snapshot of the policy so far: a long run that dies still leaves a usable policy.
    if (args.checkpoint_every > 0 && p.env_steps >= next_checkpoint) {
      next_checkpoint += args.checkpoint_every;
      write_json_file(args.output + ".checkpoint", trainer.policy().to_json());
      write_file_atomically(args.output + ".state",
                            agents::training_state(trainer, args.vary.texts));
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double rate = static_cast<double>(p.env_steps - resumed_at) / seconds;
    std::fprintf(
        stderr, "%s%s%s", terminal ? "\r" : "",
        agents::training_progress_text(args.agent, p, args.steps, rate, trainer.metric()).c_str(),
        terminal ? "   " : "\n");
  });
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (collective) check_ranks_agree(*collective, trainer);
  if (!writes) return;
  if (terminal) std::fputs("\n", stderr);
  write_file_atomically(
      args.output, agents::trained_policy_text(trainer, args.vary.texts, args.threads, seconds));
  if (!args.curve.empty())
    write_file_atomically(args.curve, agents::curve_csv(trainer.metric(), trainer.curve()));
  std::fputs(agents::training_summary_text(args.agent, trainer, trainer.env_steps() - resumed_at,
                                           seconds, args.output, args.curve)
                 .c_str(),
             stdout);
}

void train_command(const TrainArgs& args) {
  if (!args.distributed) return train(args, nullptr);
  // The ranks meet first, so that a rank failing at any point after (a bad trace, a missing
  // file, settings unlike the others') ends the whole job instead of leaving the others waiting.
  const std::unique_ptr<agents::Collective> collective = open_collective();
  try {
    train(args, collective.get());
  } catch (...) {
    fail_ranks(*collective, std::current_exception());
  }
}

}  // namespace

void add_train_command(CLI::App& app) {
  auto args = std::make_shared<TrainArgs>();
  CLI::App* command = app.add_subcommand("train", "Train a DQN or PPO agent on an env");
  command->footer(
      "Examples:\n"
      "  sysgym train memtier --vary trace=hpcc-randomaccess,sqlite hbm_capacity=25% bins=16 \\\n"
      "      --agent dqn --steps 100000 -o dqn.json\n"
      "  sysgym train memtier --vary trace=synth:phased,synth:stream --vary "
      "hbm_capacity=10%,25%,50% \\\n"
      "      --agent ppo --envs 12 --threads 2 bins=32 episode_length=64 --curve curve.csv -o "
      "ppo.json\n"
      "  sysgym train memtier --vary trace=lammps,xz 'hbm_capacity=[\"5%\",\"30%\"]' -o "
      "range.json\n"
      "  sysgym train tensorplace-v0 --vary model=resnet101,vgg16 --vary fast_memory=20%,50% \\\n"
      "      --steps 500000 -o tp.json    (ppo: the env acts in MultiBinary only)\n"
      "Env k trains on combination k of the --vary values (the last --vary fastest), round-robin\n"
      "when --envs is larger. dqn needs Discrete actions, ppo MultiBinary: the env sets its own\n"
      "action settings for the agent unless given (memtier: action_mode). Run the result with\n"
      "`sysgym run ENV --policy learned --policy-config FILE`, compare it with `sysgym eval`.\n"
      "A run with --checkpoint-every N also keeps OUTPUT.state; continue it with\n"
      "  sysgym train --resume ppo.json.state --steps 400000 -o ppo.json\n"
      "  mpirun -np 4 sysgym train memtier trace=xz --agent ppo --envs 8 --distributed -o "
      "ppo.json\n"
      "  mpirun -np 4 sysgym train memtier trace=xz --agent dqn --envs 4 --distributed -o "
      "dqn.json");
  CLI::Option* resume =
      command->add_option("--resume", args->resume,
                          "Continue a run from its OUTPUT.state (written with --checkpoint-every); "
                          "the run's env, configs, agent, envs and seed come from the state");
  const auto from_state = [&](CLI::Option* option) { option->excludes(resume); };
  add_env_flags(*command, args->env, true);  // not with --resume
  add_vary_flag(*command, args->vary);
  for (const char* name : {"env", "settings", "--config", "--set", "--vary"})
    from_state(command->get_option(name));
  from_state(command
                 ->add_option("--agent", args->agent,
                              "Agent (default: dqn where the env can act in Discrete, as "
                              "memtier, else ppo)")
                 ->check(CLI::IsMember({"dqn", "ppo"})));
  from_state(command->add_option("--agent-config", args->agent_config,
                                 "Agent hyperparameters: JSON or file"));
  add_integer_flag(*command, "--steps", args->steps, "Env steps in all", agents::kTrainStepsRange);
  from_state(add_integer_flag(*command, "--envs", args->envs,
                              "Envs stepped together (default: one per --vary combination)",
                              agents::kTrainEnvsRange));
  add_integer_flag(*command, "--threads", args->threads, "Threads stepping the envs",
                   agents::kTrainThreadsRange);
  from_state(add_integer_flag(*command, "--seed", args->seed, "Seed of the agent and the envs",
                              kSeedRange));
  from_state(add_integer_flag(*command, "--curve-every", args->curve_every,
                              "Env steps between curve points", agents::kCurveEveryRange));
  add_output_option(*command, "--curve", args->curve, "Write the learning curve as CSV");
  add_integer_flag(*command, "--checkpoint-every", args->checkpoint_every,
                   "Write the policy so far to OUTPUT.checkpoint and the whole training state "
                   "to OUTPUT.state (for --resume) every N env steps (checked at curve points)",
                   agents::kCheckpointEveryRange);
  add_output_option(*command, "-o,--output", args->output, "The policy file to write")->required();
  command->add_flag("--distributed", args->distributed,
                    "Run as one rank of an MPI job (mpirun -np N sysgym train ... --distributed), "
                    "each rank stepping --envs envs of its own. PPO: synchronous data parallel, "
                    "gradients averaged every minibatch. DQN: Ape-X, rank 0 learns from every "
                    "rank's experience and sends its weights every broadcast_every updates. The "
                    "same weights on every rank at the end; --steps counts every rank's env "
                    "steps; rank 0 alone prints and writes files");
  command->callback([args] { train_command(*args); });
}

}  // namespace sysgym::cli
