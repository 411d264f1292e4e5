// sysgym compare: every policy that runs on its own (baselines, heuristics, oracles) on one env
// config, best first by the env's primary metric.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"
#include "env/report_text.hpp"
#include "env/reports.hpp"
#include "json_output.hpp"
#include "numeric_flags.hpp"
#include "progress_bar.hpp"

namespace sysgym::cli {
namespace {

struct CompareArgs {
  EnvFlags env;
  std::vector<std::string> policies;
  std::uint64_t seed = 0;
  bool json = false;
};

void compare_command(const CompareArgs& args) {
  const std::string id = args.env.id();
  const nlohmann::json config = args.env.config_over(nlohmann::json::object());
  const std::vector<std::string> names =
      args.policies.empty() ? catalog().policies.standalone_names(id) : args.policies;
  ProgressBar bar("comparing policies");
  const nlohmann::json rows = compare_report(
      [&] { return catalog().envs.make(id, config); }, catalog().policies, names, args.seed,
      [&](std::size_t done, std::size_t total) { bar.update(done, total); });
  if (args.json) {
    print_json(rows);
    return;
  }
  const auto env = catalog().envs.make(id, config);
  std::fputs((comparison_text(id, *env, rows) + comparison_footer_text(*env, rows)).c_str(),
             stdout);
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* command =
      app.add_subcommand("compare", "Run every baseline, heuristic and oracle on an env");
  command->footer(
      "Examples:\n"
      "  sysgym compare memtier trace=lammps hbm_capacity=10%\n"
      "  sysgym compare memtier trace=pair.bin --set migration_gbps=8 --json\n"
      "  sysgym compare memtier trace=xz.ddr.csv,xz.hbm.csv window_mode=memai window_len=2e6");
  add_env_flags(*command, args->env);
  command->add_option("--policies", args->policies, "Only these policies")->delimiter(',');
  add_integer_flag(*command, "--seed", args->seed, "Episode seed", kSeedRange);
  add_json_flag(*command, args->json, "the list");
  command->callback([args] { compare_command(*args); });
}

}  // namespace sysgym::cli
