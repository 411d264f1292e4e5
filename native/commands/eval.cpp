// sysgym eval: a trained policy next to every baseline and oracle on held-out traces.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "agents/policy_file.hpp"
#include "base/error.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"
#include "env/reports.hpp"
#include "memtier/memtier_config.hpp"
#include "memtier/memtier_env.hpp"
#include "numeric_flags.hpp"
#include "progress_bar.hpp"

namespace sysgym::cli {
namespace {

struct EvalArgs {
  std::vector<std::string> policies;  // policy files
  std::vector<std::string> traces;
  std::vector<std::string> capacities;
  std::vector<std::string> baselines;
  std::uint64_t seed = 0;
  bool json = false;
};

// The env config a policy was trained with, on `trace` at `capacity`, over the whole trace.
nlohmann::json eval_config(const agents::PolicyFile& policy, const std::string& trace,
                           const std::string& capacity) {
  nlohmann::json config = policy.env_config;
  config["trace"] = resolve_trace_name(trace);
  if (!capacity.empty()) config["hbm_capacity"] = capacity;
  config["episode_start"] = 0;
  config["episode_length"] = 0;
  config["random_start"] = false;
  // Raw pairs ("DDR,HBM") and synth names are windowed as the policy was trained; a
  // preprocessed pair brings its own windows and refuses window options.
  const std::string name = config["trace"].get<std::string>();
  if (name.find(',') == std::string::npos && !name.starts_with("synth:")) {
    for (const char* key : memtier::kWindowKeys)
      config.erase(key);
  }
  return config;
}

void print_rows(const std::string& trace, const std::string& capacity, const nlohmann::json& rows) {
  std::printf("%s at %s: all-DDR %.3f ms, all-HBM %.3f ms\n", trace.c_str(), capacity.c_str(),
              rows.front()["ddr_ms"].get<double>(), rows.front()["hbm_ms"].get<double>());
  std::printf("  %-26s %14s %14s %10s\n", "policy", "total ms", "migration ms", "gap closed");
  for (const nlohmann::json& row : rows) {
    const std::string name =
        row["policy"].get<std::string>() + (row["oracle"].get<bool>() ? " *" : "");
    std::printf("  %-26s %14.3f %14.3f %9.1f%%\n", name.c_str(), row["total_ms"].get<double>(),
                row["migration_ms"].get<double>(), 100.0 * row["gap_closed"].get<double>());
  }
}

void eval_command(const EvalArgs& args) {
  std::vector<agents::PolicyFile> files;
  nlohmann::json texts = nlohmann::json::array();
  for (const std::string& path : args.policies) {
    nlohmann::json j = json_option(path, "--policy");
    try {
      files.push_back(agents::PolicyFile::from_json(j));
    } catch (const ConfigError& e) {
      throw ConfigError(path + ": " + e.what());
    }
    texts.push_back(std::move(j));
  }
  std::vector<std::string> capacities = args.capacities;
  if (capacities.empty()) {
    const nlohmann::json trained =
        files.front().env_config.value("hbm_capacity", nlohmann::json("25%"));
    // A policy trained on a capacity range is evaluated at both ends of it.
    for (const nlohmann::json& c : trained.is_array() ? trained : nlohmann::json::array({trained}))
      capacities.push_back(c.is_string() ? c.get<std::string>() : c.dump());
  }
  std::vector<std::string> baselines =
      args.baselines.empty() ? catalog().policies.standalone_names(memtier::kMemtierId)
                             : args.baselines;
  nlohmann::json report = nlohmann::json::array();
  ProgressBar bar("evaluating");
  const std::size_t total = args.traces.size() * capacities.size() * files.size();
  std::size_t done = 0;
  for (const std::string& trace : args.traces) {
    for (const std::string& capacity : capacities) {
      nlohmann::json rows = nlohmann::json::array();
      for (std::size_t f = 0; f < files.size(); ++f) {
        const nlohmann::json config = eval_config(files[f], trace, capacity);
        // Every policy file runs under its own name; the baselines once, with the first file's
        // env settings.
        std::vector<std::string> names = {"learned"};
        if (f == 0) names.insert(names.end(), baselines.begin(), baselines.end());
        nlohmann::json part =
            compare_report([&] { return catalog().envs.make(memtier::kMemtierId, config); },
                           catalog().policies, names, args.seed, {}, {{"learned", texts[f]}});
        for (nlohmann::json& row : part) {
          if (row["policy"] == "learned") row["policy"] = "learned:" + args.policies[f];
          rows.push_back(std::move(row));
        }
        bar.update(++done, total);
      }
      std::stable_sort(rows.begin(), rows.end(),
                       [](const nlohmann::json& a, const nlohmann::json& b) {
                         return a["total_ms"].get<double>() < b["total_ms"].get<double>();
                       });
      report.push_back({{"trace", trace}, {"hbm_capacity", capacity}, {"rows", rows}});
    }
  }
  if (args.json) {
    std::printf("%s\n", report.dump(2).c_str());
    return;
  }
  for (const nlohmann::json& entry : report)
    print_rows(entry["trace"], entry["hbm_capacity"], entry["rows"]);
  std::printf("* oracle (knows future windows). Sorted by total time (windows + migration).\n");
}

}  // namespace

void add_eval_command(CLI::App& app) {
  auto args = std::make_shared<EvalArgs>();
  CLI::App* command =
      app.add_subcommand("eval", "Evaluate trained policies against every baseline and oracle");
  command->footer(
      "Examples:\n"
      "  sysgym eval --policy dqn.json --traces data/real/lammps,data/real/hpcc-stream\n"
      "  sysgym eval --policy dqn.json --policy ppo.json --traces synth:random --hbm-capacity "
      "10%,50% --json\n"
      "Each trace runs whole (no random start) with the env settings the policy was trained with.");
  command->add_option("--policy", args->policies, "A policy file from `sysgym train`; repeatable")
      ->required();
  command->add_option("--traces", args->traces, "Traces to evaluate on")
      ->required()
      ->delimiter(',');
  command
      ->add_option("--hbm-capacity", args->capacities,
                   "Capacities (default: the policy's training capacity, or both ends of its "
                   "training range)")
      ->delimiter(',');
  command->add_option("--baselines", args->baselines, "Only these baselines (default: all)")
      ->delimiter(',');
  add_integer_flag(*command, "--seed", args->seed, "Episode seed", kSeedRange);
  command->add_flag("--json", args->json, "Print a JSON list");
  command->callback([args] { eval_command(*args); });
}

}  // namespace sysgym::cli
