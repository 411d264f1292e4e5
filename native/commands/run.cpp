// sysgym run: one episode of one policy on memtier-v0.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/units.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"
#include "env/episode.hpp"
#include "env/reports.hpp"
#include "files.hpp"
#include "numeric_flags.hpp"

namespace sysgym::cli {
namespace {

struct RunArgs {
  std::vector<std::string> traces;
  std::string policy;
  std::string config;
  std::vector<std::string> sets;
  std::string policy_config;
  std::string record;
  std::uint64_t seed = 0;
  bool json = false;
};

// The env config from --config, --set and --trace (joined as "DDR,HBM" when two are given).
nlohmann::json env_config(const RunArgs& args) {
  const std::vector<std::string>& traces = args.traces;
  nlohmann::json config = config_from_flags(catalog().envs.spec(memtier::kMemtierId),
                                            nlohmann::json::object(), args.config, args.sets);
  if (traces.size() > 2)
    throw ConfigError("--trace: give one preprocessed pair or two traces (DDR, then HBM)");
  if (!traces.empty())
    config["trace"] = traces.size() == 1 ? traces[0] : traces[0] + "," + traces[1];
  if (!config.contains("trace"))
    throw ConfigError("give the trace with --trace (or \"trace\" in --config)");
  return config;
}

void print_summary(const std::string& policy, const memtier::MemtierEnv& env,
                   const memtier::EpisodeSummary& s) {
  const nlohmann::json facts = env.facts();
  std::printf("%s on %s: %zu windows, HBM %s of a %s footprint\n", policy.c_str(),
              env.settings().trace.c_str(), s.windows,
              format_bytes(facts["hbm_capacity_bytes"].get<std::uint64_t>()).c_str(),
              format_bytes(facts["footprint_bytes"].get<std::uint64_t>()).c_str());
  std::printf("  estimated    %14.3f ms   windows' time, migration excluded\n", s.estimated_ms);
  std::printf("  migration    %14.3f ms   %s moved, %s refused\n", s.migration_ms,
              format_bytes(s.bytes_moved()).c_str(), format_bytes(s.refused_bytes).c_str());
  std::printf("  total        %14.3f ms\n", s.total_ms);
  std::printf("  all-DDR      %14.3f ms\n", s.ddr_ms);
  std::printf("  all-HBM      %14.3f ms\n", s.hbm_ms);
  std::printf("  gap closed   %14.1f %%\n", 100.0 * s.gap_closed);
}

void run_command(const RunArgs& args) {
  const nlohmann::json config = env_config(args);
  const nlohmann::json policy_config = args.policy_config.empty()
                                           ? nlohmann::json::object()
                                           : json_option(args.policy_config, "--policy-config");
  auto policy = catalog().policies.make(args.policy, memtier::kMemtierId, policy_config);
  auto env = make_memtier(config);
  const EpisodeRecord episode =
      run_episode(*env, *policy, args.policy, args.seed, !args.record.empty());
  if (!args.record.empty())
    write_file_atomically(args.record, episode_to_json(episode, *env).dump() + "\n");
  if (args.json) {
    std::printf("%s\n", run_report(episode, *env).dump(2).c_str());
    return;
  }
  print_summary(args.policy, *env, env->summary());
  if (!args.record.empty())
    std::printf("recorded %zu steps in %s\n", episode.steps.size(), args.record.c_str());
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* command = app.add_subcommand("run", "Run one episode of a policy on the memtier env");
  command->footer(
      "Examples:\n"
      "  sysgym run --trace pair.bin --policy lru\n"
      "  sysgym run --trace run.ddr.csv --trace run.hbm.csv --policy static-oracle \\\n"
      "      --config '{\"hbm_capacity\": \"64MiB\", \"bins\": 128}' --record episode.json --json\n"
      "  sysgym run --trace synth:phased --policy random --seed 3\n"
      "Config keys: see `sysgym describe`. Policies: see `sysgym compare` or `sysgym describe`.");
  command->add_option(
      "--trace", args->traces,
      "A preprocessed pair, two traces (DDR then HBM), or synth:PATTERN[:SAMPLES[:SEED]]");
  command->add_option("--policy", args->policy, "Policy name")->required();
  add_config_flags(*command, args->config, args->sets);
  command->add_option("--policy-config", args->policy_config,
                      "Policy parameters: JSON text or a JSON file");
  add_integer_flag(*command, "--seed", args->seed, "Episode seed", kSeedRange);
  command->add_option("--record", args->record,
                      "Write the episode (actions, rewards, infos, summary) as JSON");
  command->add_flag("--json", args->json, "Print one JSON object");
  command->callback([args] { run_command(*args); });
}

}  // namespace sysgym::cli
