// sysgym compare: every baseline, heuristic and oracle on one trace pair and capacity.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <utility>

#include "base/error.hpp"
#include "base/units.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"
#include "env/reports.hpp"
#include "memtier/memtier_env.hpp"
#include "numeric_flags.hpp"
#include "progress_bar.hpp"
#include "window_flags.hpp"

namespace sysgym::cli {
namespace {

struct CompareArgs {
  PairFlags pair;
  WindowFlags windows;
  std::string capacity;
  std::string config;
  std::vector<std::string> policies;
  std::uint64_t seed = 0;
  bool json = false;
};

nlohmann::json compare_config(const CompareArgs& args) {
  nlohmann::json config =
      args.config.empty() ? nlohmann::json::object() : json_option(args.config, "--config");
  if (!config.is_object()) throw ConfigError("--config: expected a JSON object");
  if (!args.pair.trace.empty()) {
    config["trace"] = args.pair.trace;
  } else if (args.pair.input_option->count() > 0) {
    config["trace"] = args.pair.input;
  } else if (!args.pair.ddr.empty()) {
    config["trace"] = args.pair.ddr + "," + args.pair.hbm;
  }
  if (!config.contains("trace")) {
    throw ConfigError("give the pair with --ddr FILE --hbm FILE, --input FILE or --trace NAME");
  }
  config["hbm_capacity"] = args.capacity;
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
  return config;
}

void compare_command(const CompareArgs& args) {
  const nlohmann::json config = compare_config(args);
  const std::vector<std::string> names =
      args.policies.empty() ? catalog().policies.standalone_names(memtier::kMemtierId)
                            : args.policies;
  ProgressBar bar("comparing policies");
  const nlohmann::json rows = compare_report(
      [&] { return catalog().envs.make(memtier::kMemtierId, config); }, catalog().policies, names,
      args.seed, [&](std::size_t done, std::size_t total) { bar.update(done, total); });
  if (args.json) {
    std::printf("%s\n", rows.dump(2).c_str());
    return;
  }
  const auto env = make_memtier(config);
  const nlohmann::json facts = env->facts();
  std::printf("%s: %llu windows (%s), HBM %s of a %s footprint, all-DDR %.3f ms, all-HBM %.3f ms\n",
              env->settings().trace.c_str(),
              static_cast<unsigned long long>(facts["windows"].get<std::uint64_t>()),
              facts["window_mode"].get<std::string>().c_str(),
              format_bytes(facts["hbm_capacity_bytes"].get<std::uint64_t>()).c_str(),
              format_bytes(facts["footprint_bytes"].get<std::uint64_t>()).c_str(),
              rows.front()["ddr_ms"].get<double>(), rows.front()["hbm_ms"].get<double>());
  std::printf("%-24s %14s %14s %14s %10s %12s\n", "policy", "estimated ms", "migration ms",
              "total ms", "gap closed", "moved");
  for (const nlohmann::json& row : rows) {
    const std::string name =
        row["policy"].get<std::string>() + (row["oracle"].get<bool>() ? " *" : "");
    std::printf("%-24s %14.3f %14.3f %14.3f %9.1f%% %12s\n", name.c_str(),
                row["estimated_ms"].get<double>(), row["migration_ms"].get<double>(),
                row["total_ms"].get<double>(), 100.0 * row["gap_closed"].get<double>(),
                format_bytes(row["bytes_moved"].get<std::uint64_t>()).c_str());
  }
  std::printf(
      "* oracle (knows future windows). Sorted by gap closed, which counts total time (migration\n"
      "  included): (all-DDR - total) / (all-DDR - all-HBM).\n");
}

}  // namespace

void add_compare_command(CLI::App& app) {
  auto args = std::make_shared<CompareArgs>();
  CLI::App* command =
      app.add_subcommand("compare", "Run every baseline, heuristic and oracle on a trace pair");
  command->footer(
      "Examples:\n"
      "  sysgym compare --ddr run.ddr.csv --hbm run.hbm.csv --hbm-capacity 64MiB\n"
      "  sysgym compare --input pair.bin --hbm-capacity 10% --json\n"
      "  sysgym compare --trace synth:phased --hbm-capacity 25% --config '{\"migration_gbps\": "
      "8}'");
  args->pair.add_to(*command, true);
  command
      ->add_option("--hbm-capacity", args->capacity,
                   "HBM size: bytes, 64MiB, or a % of the footprint")
      ->required();
  args->windows.add_to(*command);
  command->add_option("--config", args->config, "More env config: JSON text or a JSON file");
  command->add_option("--policies", args->policies, "Only these policies")->delimiter(',');
  add_integer_flag(*command, "--seed", args->seed, "Episode seed", kSeedRange);
  command->add_flag("--json", args->json, "Print a JSON list");
  command->callback([args] { compare_command(*args); });
}

}  // namespace sysgym::cli
