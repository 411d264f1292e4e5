// sysgym list: the registered envs. sysgym describe: any env's resolved config, facts, spaces,
// observation layout, info keys and the policies that run on it.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "agents/trainer.hpp"
#include "base/error.hpp"
#include "catalog.hpp"
#include "commands/commands.hpp"
#include "env/describe.hpp"
#include "json_output.hpp"

namespace sysgym::cli {
namespace {

struct DescribeArgs {
  EnvFlags env;
  bool json = false;
};

void describe_command(const DescribeArgs& args) {
  // Without ENV: the first registered env.
  const std::string id = args.env.named() ? args.env.id() : catalog().envs.first_id();
  const EnvSpec& spec = catalog().envs.spec(id);
  const nlohmann::json config = args.env.config_over(spec, spec.example_config);
  const auto env = catalog().envs.make(id, config);
  const nlohmann::json out = describe_report(
      spec, *env, catalog().policies, agents::fitting_agents(catalog().envs, spec, config, *env));
  if (args.json) {
    print_json(out);
    return;
  }
  std::fputs(describe_text(spec, *env, out).c_str(), stdout);
}

void list_command(bool json) {
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& id : catalog().envs.ids())
    out.push_back({{"id", id}, {"summary", catalog().envs.spec(id).summary}});
  if (json) {
    print_json(out);
    return;
  }
  for (const auto& env : out) {
    std::printf("%-16s %s\n", env["id"].get<std::string>().c_str(),
                env["summary"].get<std::string>().c_str());
  }
}

}  // namespace

void add_list_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* command = app.add_subcommand("list", "List the registered envs");
  command->footer("Example:\n  sysgym list\nThen: sysgym describe ID, sysgym check ID.");
  add_json_flag(*command, *json, "the list of {id, summary}");
  command->callback([json] { list_command(*json); });
}

void add_describe_command(CLI::App& app) {
  auto args = std::make_shared<DescribeArgs>();
  CLI::App* command = app.add_subcommand("describe", "Show an env's config, spaces and policies");
  command->footer(
      "Examples:\n  sysgym describe memtier\n  sysgym describe memtier-v0 --config '{\"bins\": "
      "128, \"action_mode\": \"discrete\"}' --json\n  sysgym describe memtier --set bins=16 --set "
      "hbm_capacity=10%\n  sysgym describe memtier bins=16 hbm_capacity=10%\n"
      "Keys missing from --config come from the env's example config (memtier: a small synthetic "
      "trace, synth:phased:5000, in episodes of 200 windows).");
  add_env_flags(*command, args->env, true);
  add_json_flag(*command, args->json, "the report");
  command->callback([args] { describe_command(*args); });
}

}  // namespace sysgym::cli
