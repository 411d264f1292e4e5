// sysgym train: a DQN or PPO agent on memtier-v0 over several traces and capacities, stepped
// on threads; writes a policy file and the learning curve.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "agents/trainer.hpp"
#include "base/error.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"
#include "files.hpp"
#include "numeric_flags.hpp"
#include "thread_pool.hpp"

namespace sysgym::cli {
namespace {

constexpr std::uint64_t kMaxTrainSteps = std::uint64_t{1} << 40;

struct TrainArgs {
  std::vector<std::string> traces;
  std::vector<std::string> capacities = {"25%"};
  std::string agent = "dqn";
  std::string agent_config;
  std::string config;
  std::int64_t steps = 200000;
  std::size_t envs = 0;
  std::size_t threads = 1;
  std::uint64_t seed = 0;
  std::int64_t curve_every = 5000;
  std::int64_t checkpoint_every = 0;
  std::string resume;
  std::string curve;
  std::string output;
};

// "LOW:HIGH" is a range each episode draws from; anything else one capacity.
nlohmann::json capacity_value(const std::string& text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) return text;
  return nlohmann::json::array({text.substr(0, colon), text.substr(colon + 1)});
}

// One env config per (trace, capacity), repeated round-robin up to `count` envs.
std::vector<nlohmann::json> env_configs(const TrainArgs& args, const std::string& mode) {
  nlohmann::json base =
      args.config.empty() ? nlohmann::json::object() : json_option(args.config, "--config");
  if (!base.is_object()) throw ConfigError("--config: expected a JSON object");
  if (!base.contains("action_mode")) base["action_mode"] = mode;
  if (!base.contains("random_start") && base.value("episode_length", 0) > 0)
    base["random_start"] = true;
  const std::size_t combos = args.traces.size() * args.capacities.size();
  const std::size_t count = args.envs > 0 ? args.envs : combos;
  std::vector<nlohmann::json> out;
  for (std::size_t k = 0; k < count; ++k) {
    nlohmann::json c = base;
    c["trace"] = resolve_trace_name(args.traces[k % args.traces.size()]);
    c["hbm_capacity"] =
        capacity_value(args.capacities[(k / args.traces.size()) % args.capacities.size()]);
    out.push_back(std::move(c));
  }
  return out;
}

void write_curve(const std::string& path, const std::string& metric,
                 const std::vector<agents::CurvePoint>& curve) {
  std::string csv =
      "env_steps,episodes,mean_return,mean_" + (metric.empty() ? "metric" : metric) + ",loss\n";
  char line[160];
  for (const agents::CurvePoint& p : curve) {
    std::snprintf(line, sizeof(line), "%lld,%lld,%.6f,%.6f,%.6g\n",
                  static_cast<long long>(p.env_steps), static_cast<long long>(p.episodes),
                  p.mean_return, p.mean_metric, p.loss);
    csv += line;
  }
  write_file_atomically(path, csv);
}

nlohmann::json read_state(const std::string& path) {
  const MappedFile file(path);
  try {
    return nlohmann::json::from_cbor(file.bytes().begin(), file.bytes().end());
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError("--resume " + path +
                      ": not a training state written by --checkpoint-every (" + e.what() + ")");
  }
}

// The state beside the policy: the trainer's, plus what the command line said about traces.
void write_state(const std::string& path, const agents::Trainer& trainer, const TrainArgs& args) {
  nlohmann::json state = trainer.state();
  state["cli"] = {{"traces", args.traces}, {"capacities", args.capacities}};
  write_file_atomically(path, nlohmann::json::to_cbor(state));
}

void train_command(TrainArgs args) {
  if (args.resume.empty() && args.traces.empty()) {
    throw ConfigError("--traces is required (or --resume a training state)");
  }
  agents::TrainerOptions options;
  nlohmann::json state;
  if (!args.resume.empty()) {
    state = read_state(args.resume);
    try {
      options = agents::Trainer::options_of_state(state);
    } catch (const ConfigError& e) {
      throw ConfigError("--resume " + args.resume + ": " + e.what());
    }
    args.agent = options.agent;
    args.traces =
        state.value("cli", nlohmann::json::object()).value("traces", std::vector<std::string>{});
    args.capacities = state.value("cli", nlohmann::json::object())
                          .value("capacities", std::vector<std::string>{});
  } else {
    options.agent = args.agent;
    options.agent_config = args.agent_config.empty()
                               ? nlohmann::json::object()
                               : json_option(args.agent_config, "--agent-config");
    options.env_configs = env_configs(args, args.agent == "ppo" ? "bins" : "discrete");
    options.seed = args.seed;
    options.curve_every = args.curve_every;
  }
  ThreadPool pool(args.threads);
  agents::Trainer trainer(catalog().envs, options,
                          args.threads > 1 ? pool.as_parallel_for() : ParallelFor{});
  if (!state.is_null()) {
    try {
      trainer.load_state(state);
    } catch (const ConfigError& e) {
      throw ConfigError("--resume " + args.resume + ": " + e.what());
    }
    std::fprintf(stderr, "resumed %s at %lld env steps from %s\n", args.agent.c_str(),
                 static_cast<long long>(trainer.env_steps()), args.resume.c_str());
  }
  const auto start = std::chrono::steady_clock::now();
  const bool terminal = stderr_is_terminal();
  const std::int64_t resumed_at = trainer.env_steps();
  std::int64_t next_checkpoint = args.checkpoint_every;
  const std::string metric = trainer.metric().empty() ? "metric" : trainer.metric();
  trainer.train_until(args.steps, [&](const agents::CurvePoint& p) {
    // A snapshot of the policy so far: a long run that dies still leaves a usable policy.
    if (args.checkpoint_every > 0 && p.env_steps >= next_checkpoint) {
      next_checkpoint += args.checkpoint_every;
      write_file_atomically(args.output + ".checkpoint", trainer.policy().to_json().dump() + "\n");
      write_state(args.output + ".state", trainer, args);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double rate = static_cast<double>(p.env_steps - resumed_at) / seconds;
    std::fprintf(stderr,
                 "%s%s %lld/%lld steps (%.0f%%), %.0f steps/s, %lld episodes, return %.3f, %s "
                 "%.4g, loss %.4g%s",
                 terminal ? "\r" : "", args.agent.c_str(), static_cast<long long>(p.env_steps),
                 static_cast<long long>(args.steps),
                 100.0 * static_cast<double>(p.env_steps) / static_cast<double>(args.steps), rate,
                 static_cast<long long>(p.episodes), p.mean_return, metric.c_str(), p.mean_metric,
                 p.loss, terminal ? "   " : "\n");
  });
  if (terminal) std::fputs("\n", stderr);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  agents::PolicyFile policy = trainer.policy();
  policy.training["traces"] = args.traces;
  policy.training["capacities"] = args.capacities;
  policy.training["threads"] = args.threads;
  policy.training["seconds"] = seconds;
  write_file_atomically(args.output, policy.to_json().dump() + "\n");
  if (!args.curve.empty()) write_curve(args.curve, trainer.metric(), trainer.curve());
  std::printf("trained %s for %lld env steps (%lld episodes) in %.1f s: %.0f steps/s\n",
              args.agent.c_str(), static_cast<long long>(trainer.env_steps()),
              static_cast<long long>(trainer.episodes()), seconds,
              static_cast<double>(trainer.env_steps() - resumed_at) / seconds);
  std::printf("wrote %s%s%s\n", args.output.c_str(), args.curve.empty() ? "" : " and ",
              args.curve.c_str());
}

}  // namespace

void add_train_command(CLI::App& app) {
  auto args = std::make_shared<TrainArgs>();
  CLI::App* command = app.add_subcommand("train", "Train a DQN or PPO agent on memtier traces");
  command->footer(
      "Examples:\n"
      "  sysgym train --traces data/real/xz,data/real/sqlite --agent dqn --steps 100000 -o "
      "dqn.json\n"
      "  sysgym train --traces synth:phased,synth:stream --hbm-capacity 10%,25%,50% --agent ppo "
      "\\\n"
      "      --envs 12 --threads 2 --config '{\"bins\": 32, \"episode_length\": 64}' --curve "
      "curve.csv -o ppo.json\n"
      "A trace is a pair name: PREFIX (PREFIX.ddr.bin + PREFIX.hbm.bin), PAIR.bin or "
      "synth:PATTERN.\n"
      "Env k trains on trace k mod T at capacity (k / T) mod C; dqn uses the discrete action "
      "mode,\n"
      "ppo the bins mode. Run the result with `sysgym run --policy learned --policy-config FILE`.\n"
      "A run with --checkpoint-every N also keeps OUTPUT.state; continue it with\n"
      "  sysgym train --resume ppo.json.state --steps 400000 -o ppo.json");
  CLI::Option* resume =
      command->add_option("--resume", args->resume,
                          "Continue a run from its OUTPUT.state (written with --checkpoint-every); "
                          "the run's traces, agent, configs, envs and seed come from the state");
  const auto from_state = [&](CLI::Option* option) { option->excludes(resume); };
  from_state(command->add_option("--traces", args->traces, "Training traces")->delimiter(','));
  from_state(command
                 ->add_option("--hbm-capacity", args->capacities,
                              "Capacities to train at; LOW:HIGH draws one per episode (5%:30%)")
                 ->delimiter(',')
                 ->capture_default_str());
  from_state(command->add_option("--agent", args->agent, "Agent")
                 ->check(CLI::IsMember({"dqn", "ppo"}))
                 ->capture_default_str());
  from_state(command->add_option("--agent-config", args->agent_config,
                                 "Agent hyperparameters: JSON or file"));
  from_state(
      command->add_option("--config", args->config, "Env config for every env: JSON or file"));
  add_integer_flag(*command, "--steps", args->steps, "Env steps in all", {1, kMaxTrainSteps});
  from_state(add_integer_flag(*command, "--envs", args->envs,
                              "Envs stepped together (default: traces x capacities)", {1, 4096}));
  add_integer_flag(*command, "--threads", args->threads, "Threads stepping the envs", {1, 256});
  from_state(add_integer_flag(*command, "--seed", args->seed, "Seed of the agent and the envs",
                              kSeedRange));
  from_state(add_integer_flag(*command, "--curve-every", args->curve_every,
                              "Env steps between curve points", {1, 1 << 30}));
  command->add_option("--curve", args->curve, "Write the learning curve as CSV");
  add_integer_flag(*command, "--checkpoint-every", args->checkpoint_every,
                   "Write the policy so far to OUTPUT.checkpoint and the whole training state "
                   "to OUTPUT.state (for --resume) every N env steps (checked at curve points)",
                   {0, kMaxTrainSteps});
  command->add_option("-o,--output", args->output, "The policy file to write")->required();
  command->callback([args] { train_command(*args); });
}

}  // namespace sysgym::cli
