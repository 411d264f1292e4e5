// sysgym memtier traces: which traces are worth learning on. For each (default: the shipped
// ones), its all-DDR and all-HBM times, the gap between them and how much of it the static oracle
// closes at a capacity (core/memtier/reports.hpp).
#include <cstdio>
#include <memory>

#include "catalog.hpp"
#include "families/memtier/memtier_commands.hpp"
#include "json_output.hpp"
#include "memtier/pair_source.hpp"
#include "memtier/reports.hpp"

namespace sysgym::cli {
namespace {

struct TracesArgs {
  std::vector<std::string> names;
  std::string capacity = "10%";
  bool json = false;
};

void print_rows(const nlohmann::json& rows, const std::string& capacity) {
  std::printf("%-22s %8s %12s %12s %8s %16s\n", "trace", "windows", "all DDR ms", "all HBM ms",
              "gap", "oracle closes");
  for (const nlohmann::json& r : rows) {
    std::printf("%-22s %8lld %12.3f %12.3f %7.1f%% %15.1f%%\n",
                r.at("trace").get<std::string>().c_str(), r.at("windows").get<long long>(),
                r.at("ddr_ms").get<double>(), r.at("hbm_ms").get<double>(),
                100.0 * r.at("gap_share").get<double>(),
                100.0 * r.at("static_oracle_gap_closed").get<double>());
  }
  std::printf(
      "gap: (all DDR - all HBM) / all DDR, the most any placement can win; oracle closes: the\n"
      "share of the gap the best fixed placement wins with HBM for %s of the footprint.\n",
      capacity.c_str());
}

void run_traces(const TracesArgs& args) {
  Catalog& c = catalog();
  const std::vector<std::string> names =
      args.names.empty() ? memtier::shipped_pair_names(*c.data) : args.names;
  const nlohmann::json rows = memtier::headroom_report(c.envs, c.policies, names, args.capacity);
  if (args.json) {
    print_json(rows);
  } else {
    print_rows(rows, args.capacity);
  }
}

}  // namespace

void add_traces_command(CLI::App& app) {
  auto args = std::make_shared<TracesArgs>();
  CLI::App* command = app.add_subcommand(
      "traces", "Which traces are worth learning on: each one's DDR/HBM gap and oracle headroom");
  command->footer(
      "Example:\n  sysgym memtier traces --hbm-capacity 5%\n  sysgym memtier traces lammps "
      "data/synth/phased --json");
  command->add_option(
      "names", args->names,
      "Trace names as the env's trace key takes them (default: every shipped pair)");
  command
      ->add_option("--hbm-capacity", args->capacity,
                   "HBM size for the oracle: bytes, 64MiB or a percentage of the footprint")
      ->capture_default_str();
  add_json_flag(*command, args->json, "the table (one row per trace)");
  command->callback([args] { run_traces(*args); });
}

}  // namespace sysgym::cli
