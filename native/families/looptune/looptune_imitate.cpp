// sysgym looptune imitate: a policy network that imitates the searches (DAgger). The searches
// reach register blocks that a DQN trained on the reward rarely finds within an episode (30x
// against 7x on LoopTune's held-out matmuls), but they plan for milliseconds per problem; the
// network acts in microseconds. Round 0 labels the states the teachers' own plans visit; each
// later round lets the network of the round before drive and labels the states it reaches, so it
// learns to recover from its own mistakes; a network trained on all the labels is written as a
// policy file (agent "imitation") that every shell plays like any other learned policy.
#include <cmath>
#include <cstdio>
#include <memory>

#include "agents/imitation.hpp"
#include "agents/policy_file.hpp"
#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/rng.hpp"
#include "catalog.hpp"
#include "families/looptune/looptune_commands.hpp"
#include "files.hpp"
#include "json_output.hpp"
#include "looptune/search_policy.hpp"
#include "looptune/teacher_labels.hpp"
#include "numeric_flags.hpp"
#include "output_flags.hpp"
#include "progress_bar.hpp"

namespace sysgym::cli {
namespace {

constexpr const char* kLooptuneEnv = "looptune-v0";

struct ImitateArgs {
  EnvFlags env;
  std::vector<std::string> kernels = {"matmul-random-train", "conv-random-train"};
  std::vector<std::string> teachers = {"beam2dfs", "anneal"};
  std::int64_t evaluations = 300;
  std::int64_t episodes = 200;
  std::int64_t rounds = 3;
  std::vector<int> hidden = {128, 128};
  std::int64_t epochs = 40;
  std::int64_t seed = 0;
  std::string output;
  bool json = false;
};

std::vector<looptune::TeacherSearch> teachers_of(const ImitateArgs& args) {
  std::vector<looptune::TeacherSearch> out;
  for (const std::string& name : args.teachers) {
    const auto search = looptune::planning_search(name);
    if (!search)
      throw UnknownNameError("looptune imitate: teacher " + quote(name) +
                             " is not a planning search (beam2bfs, beam4bfs, beam2dfs, beam4dfs, "
                             "rollouts, anneal)");
    looptune::TeacherSearch t;
    t.kind = search->first;
    t.width = search->second;
    t.budget.evaluations = args.evaluations;
    out.push_back(t);
  }
  return out;
}

agents::PolicyFile train_on(const Env& env, const looptune::LabelledStates& labels,
                            const ImitateArgs& args, agents::ImitationResult& trained) {
  agents::ImitationConfig config;
  config.hidden = args.hidden;
  config.epochs = static_cast<int>(args.epochs);
  config.seed = static_cast<std::uint64_t>(args.seed);
  // Unweighted: the labels keep the teachers' own mix of actions. Weighting each action by the
  // inverse of its share (made for inline's two lopsided classes) measured far worse here:
  // 20.7x / 1.03x / 8.3x / 2.1x on the four held-out sets against 23.1x / 5.1x / 30.5x / 7.8x.
  config.balance = false;
  trained =
      agents::train_imitation(labels.observations, labels.actions, looptune::kActionCount, config);
  return agents::imitation_policy_file(env, trained.network,
                                       {{"teachers", args.teachers},
                                        {"evaluations", args.evaluations},
                                        {"episodes", args.episodes},
                                        {"rounds", args.rounds},
                                        {"hidden", args.hidden},
                                        {"epochs", args.epochs}});
}

void run_imitate(const ImitateArgs& args) {
  const EnvSpec& spec = catalog().envs.spec(kLooptuneEnv);
  const std::vector<looptune::TeacherSearch> teachers = teachers_of(args);
  std::vector<std::unique_ptr<Env>> envs;
  for (const std::string& kernel : args.kernels)
    envs.push_back(
        catalog().envs.make(kLooptuneEnv, args.env.config_over(spec, {{"kernel", kernel}})));
  looptune::LabelledStates labels;
  agents::PolicyFile file;
  agents::ImitationResult trained;
  std::unique_ptr<Policy> student;
  nlohmann::json rounds = nlohmann::json::array();
  ProgressBar bar("labelling states");
  const std::uint64_t total = static_cast<std::uint64_t>(args.episodes * (args.rounds + 1));
  for (std::int64_t round = 0; round <= args.rounds; ++round) {
    double log_speedup = 0;
    const std::size_t before = labels.actions.size();
    for (std::int64_t e = 0; e < args.episodes; ++e) {
      auto& env =
          dynamic_cast<looptune::LooptuneEnv&>(*envs[static_cast<std::size_t>(e) % envs.size()]);
      const std::uint64_t seed = derive_seed(static_cast<std::uint64_t>(args.seed),
                                             static_cast<std::uint64_t>(round * args.episodes + e));
      const looptune::LabelledEpisode episode =
          looptune::label_episode(env, seed, teachers, student.get(), labels);
      log_speedup += std::log(episode.best_speedup);
      bar.update(static_cast<std::uint64_t>(round * args.episodes + e + 1), total);
    }
    file = train_on(*envs.front(), labels, args, trained);
    rounds.push_back(
        {{"round", round},
         {"driver", round == 0 ? "teachers" : "network"},
         {"states", labels.actions.size() - before},
         {"best_speedup_geomean", std::exp(log_speedup / static_cast<double>(args.episodes))},
         {"accuracy", trained.accuracy}});
    student = catalog().policies.make("learned", kLooptuneEnv, file.to_json());
  }
  file.training = {{"rounds", rounds},
                   {"kernels", args.kernels},
                   {"examples", labels.actions.size()},
                   {"final_loss", trained.epoch_loss.back()},
                   {"seed", args.seed}};
  write_json_file(args.output, file.to_json());
  if (args.json) {
    print_json(file.training);
    return;
  }
  std::printf("%-6s %-9s %8s %22s %9s\n", "round", "driver", "states", "best speedup (geomean)",
              "accuracy");
  for (const nlohmann::json& r : rounds) {
    std::printf("%-6lld %-9s %8zu %22.2f %9.3f\n", r["round"].get<long long>(),
                r["driver"].get<std::string>().c_str(), r["states"].get<std::size_t>(),
                r["best_speedup_geomean"].get<double>(), r["accuracy"].get<double>());
  }
  std::printf("trained on %zu labelled states; wrote %s\n", labels.actions.size(),
              printable(args.output, 1024).c_str());
}

}  // namespace

void add_looptune_imitate(CLI::App& family) {
  auto args = std::make_shared<ImitateArgs>();
  CLI::App* command = family.add_subcommand(
      "imitate", "Train a policy network on the searches' plans (DAgger), for microsecond tuning");
  command->footer(
      "Examples:\n"
      "  sysgym looptune imitate -o looptune-imitation.json\n"
      "  sysgym looptune imitate --kernel matmul-random-train --teacher beam4dfs --rounds 1 "
      "-o matmul.json\n"
      "  sysgym looptune bench --set matmul-random-test --policy looptune-imitation.json\n"
      "Each round plays --episodes episodes (the kernels in turn, each episode's problem drawn "
      "from its set) and labels every state with the first action of the best plan the teachers "
      "find from it over the episode's remaining steps. Round 0 plays the labels; later rounds "
      "play the network trained on the labels so far. KEY=VALUE are looptune-v0 settings.");
  add_env_flags(*command, args->env, true);
  command->add_option("--kernel", args->kernels, "A kernel or problem set; repeatable")
      ->capture_default_str();
  command->add_option("--teacher", args->teachers, "A planning search; repeatable")
      ->capture_default_str();
  add_integer_flag(*command, "--evaluations", args->evaluations,
                   "Schedules each teacher may evaluate per state", {1, 100'000'000});
  add_integer_flag(*command, "--episodes", args->episodes, "Episodes per round", {1, 10'000'000});
  add_integer_flag(*command, "--rounds", args->rounds, "Rounds the network drives", {0, 1000});
  command->add_option("--hidden", args->hidden, "Hidden layer sizes of the policy network")
      ->delimiter(',')
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  add_integer_flag(*command, "--epochs", args->epochs, "Training epochs per round", {1, 100000});
  add_integer_flag(*command, "--seed", args->seed, "Seed of the episodes and the training",
                   {0, INT64_MAX});
  add_output_option(*command, "-o,--output", args->output, "The policy file to write")->required();
  add_json_flag(*command, args->json, "the report");
  command->callback([args] { run_imitate(*args); });
}

}  // namespace sysgym::cli
