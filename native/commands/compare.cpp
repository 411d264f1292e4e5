// sysgym compare: every policy that runs on its own (baselines, heuristics, oracles) on one env
// config, best first by the env's primary metric.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <utility>

#include "base/error.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"
#include "env/reports.hpp"
#include "numeric_flags.hpp"
#include "progress_bar.hpp"
#include "report_text.hpp"
#include "window_flags.hpp"

namespace sysgym::cli {
namespace {

struct CompareArgs {
  EnvFlags env;
  PairFlags pair;  // the old memtier form: --ddr/--hbm, --input, --trace, --hbm-capacity
  WindowFlags windows;
  std::string capacity;
  std::vector<std::string> policies;
  std::uint64_t seed = 0;
  bool json = false;
};

// The old memtier form's flags over the config (each only when given).
void add_pair_flags_to(const CompareArgs& args, nlohmann::json& config) {
  if (!args.pair.trace.empty()) {
    config["trace"] = args.pair.trace;
  } else if (args.pair.input_option->count() > 0) {
    config["trace"] = args.pair.input;
  } else if (!args.pair.ddr.empty()) {
    config["trace"] = args.pair.ddr + "," + args.pair.hbm;
  }
  if (!args.capacity.empty()) config["hbm_capacity"] = args.capacity;
  // Only the window options given on the command line (a preprocessed pair refuses any), as
  // their flags parsed them: in WindowFlags::add_to's order.
  const WindowFlags& w = args.windows;
  const std::pair<const char*, nlohmann::json> values[] = {
      {"window_mode", w.mode},
      {"unit", w.unit},
      {"window_len", w.window_len ? nlohmann::json(*w.window_len) : nlohmann::json()},
      {"page_size", w.page_size},
      {"cpu_cycles_per_ms", w.cpu_cycles_per_ms}};
  for (std::size_t i = 0; i < w.options.size(); ++i) {
    if (w.options[i]->count() > 0) config[values[i].first] = values[i].second;
  }
}

void compare_command(CompareArgs args) {
  if (args.env.env.empty()) args.env.env = "memtier-v0";  // the old form names no env
  const std::string id = args.env.id();
  nlohmann::json config = args.env.config_over(nlohmann::json::object());
  add_pair_flags_to(args, config);
  const std::vector<std::string> names =
      args.policies.empty() ? catalog().policies.standalone_names(id) : args.policies;
  ProgressBar bar("comparing policies");
  const nlohmann::json rows = compare_report(
      [&] { return catalog().envs.make(id, config); }, catalog().policies, names, args.seed,
      [&](std::size_t done, std::size_t total) { bar.update(done, total); });
  if (args.json) {
    std::printf("%s\n", rows.dump(2).c_str());
    return;
  }
  const auto env = catalog().envs.make(id, config);
  print_comparison(id, *env, rows);
  print_comparison_footer(*env);
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
      "The old memtier form (no ENV) still works: sysgym compare --ddr A --hbm B --hbm-capacity "
      "64MiB");
  add_env_flags(*command, args->env, true);
  args->pair.add_to(*command, true);
  command->add_option("--hbm-capacity", args->capacity,
                      "memtier's HBM size (the old form; same as hbm_capacity=SIZE)");
  args->windows.add_to(*command);
  command->add_option("--policies", args->policies, "Only these policies")->delimiter(',');
  add_integer_flag(*command, "--seed", args->seed, "Episode seed", kSeedRange);
  command->add_flag("--json", args->json, "Print a JSON list");
  command->callback([args] { compare_command(*args); });
}

}  // namespace sysgym::cli
