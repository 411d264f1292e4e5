// sysgym check: does an env (or every registered env) keep the env contract? (core/env/check_env)
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"
#include "env/check_env.hpp"
#include "json_output.hpp"
#include "numeric_flags.hpp"

namespace sysgym::cli {
namespace {

struct CheckArgs {
  EnvFlags env;
  bool all = false;
  std::uint64_t seed = 0;
  bool json = false;
};

void check_command(const CheckArgs& args) {
  if (args.all == args.env.named()) throw ConfigError("give one env id, or --all");
  EnvCheckOptions options;
  options.seed = args.seed;
  const std::vector<std::string> ids =
      args.all ? catalog().envs.ids() : std::vector<std::string>{args.env.id()};
  nlohmann::json report = nlohmann::json::object();
  for (const std::string& id : ids) {
    options.config = args.env.config_over(catalog().envs.spec(id), nlohmann::json::object());
    const std::vector<std::string> passed =
        check_env(catalog().envs, catalog().policies, id, options);
    report[id] = passed;
    if (args.json) continue;
    std::printf("%s: every check passed\n", id.c_str());
    for (const std::string& line : passed)
      std::printf("  ok  %s\n", line.c_str());
  }
  if (args.json) print_json(report);
}

}  // namespace

void add_check_command(CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* command = app.add_subcommand("check",
                                         "Check that an env keeps the env contract (spaces, "
                                         "determinism, errors, recordings)");
  command->footer(
      "Examples:\n  sysgym check memtier\n  sysgym check --all --json\n"
      "  sysgym check memtier-v0 --config '{\"action_mode\": \"discrete\"}'\n"
      "  sysgym check memtier action_mode=discrete bins=8\n"
      "The env is made from its example config with --config's keys over it. A broken promise "
      "is an EnvCheckError (exit 1) naming it.");
  add_env_flags(*command, args->env, true);
  command->add_flag("--all", args->all, "Check every registered env");
  add_integer_flag(*command, "--seed", args->seed, "Seed of the checked episodes", kSeedRange);
  add_json_flag(*command, args->json, "{id: [passed checks]}");
  command->callback([args] { check_command(*args); });
}

}  // namespace sysgym::cli
