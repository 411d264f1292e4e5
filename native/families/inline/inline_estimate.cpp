// sysgym inline estimate: what the cost model says of a decision set (model mode, no compiler),
// the figures the browser's call-graph view shows, through the same core request
// (inline/model_view.hpp), so the two can be compared to the bit.
#include <cstdio>
#include <memory>

#include "agents/learned_policy.hpp"
#include "base/error.hpp"
#include "base/json_text.hpp"
#include "catalog.hpp"
#include "families/inline/inline_commands.hpp"
#include "inline/inline_env.hpp"
#include "inline/model_view.hpp"
#include "json_output.hpp"

namespace sysgym::cli {
namespace {

constexpr const char* kEstimateEnv = "inline-v0";

struct InlineEstimateArgs {
  EnvFlags env;
  std::string decisions = "Oz";
  std::string policy;
  std::string policy_config;
  bool graph = false;
  bool json = false;
};

void print_estimate(const nlohmann::json& e, const std::string& label) {
  std::printf("%s on %s (%zu sites, %zu inlined), model mode:\n", label.c_str(),
              e["program"].get<std::string>().c_str(), e["sites"].get<std::size_t>(),
              e["inlined"].get<std::size_t>());
  std::printf("  text          %12.0f bytes  (%.4f of clang -Oz's decisions)\n",
              e["text_bytes"].get<double>(), e["text_vs_Oz"].get<double>());
  std::printf("  instructions  %12.0f        (%.4f of clang -O2's decisions)\n",
              e["instructions"].get<double>(), e["instructions_vs_O2"].get<double>());
  std::printf("  score         %12.5f        (1 - cost against the env's baseline; > 0 beats it)\n",
              e["score"].get<double>());
}

void run_estimate(const InlineEstimateArgs& args) {
  const EnvSpec& spec = catalog().envs.spec(kEstimateEnv);
  const nlohmann::json parameters = args.policy_config.empty()
                                        ? nlohmann::json::object()
                                        : json_option(args.policy_config, "--policy-config");
  // A learned policy is scored on the settings it was trained on, which those given here may
  // not contradict.
  const nlohmann::json given = args.env.config_over(spec, nlohmann::json::object());
  const nlohmann::json config =
      args.policy.empty() ? given : agents::config_for_policy(args.policy, parameters, spec, given);
  std::unique_ptr<Env> made = catalog().envs.make(kEstimateEnv, config);
  auto& env = dynamic_cast<inlining::InlineEnv&>(*made);
  if (env.facts().value("programs", 1) != 1)
    throw ConfigError("inline estimate: 'program' names a split; name one program");
  env.reset(0);
  nlohmann::json decisions;
  if (!args.policy.empty()) {
    const inlining::Decisions d = policy_decisions(env.config()["program"].get<std::string>(),
                                                   args.policy, parameters, config);
    decisions = nlohmann::json(std::vector<int>(d.begin(), d.end()));
  } else {
    decisions = decisions_option(args.decisions);
  }
  const nlohmann::json e = inlining::model_view(
      env, {{"decisions", decisions}, {"graph", args.graph}}, "inline estimate");
  if (args.json) {
    print_json(e, args.graph ? -1 : 2);
    return;
  }
  print_estimate(e, args.policy.empty() ? args.decisions : args.policy);
  if (args.graph)
    std::printf("  call graph    %zu functions, %zu sites (--json prints them)\n",
                e["graph"]["functions"].size(), e["graph"]["sites"].size());
}

}  // namespace

void add_inline_estimate(CLI::App& family) {
  auto args = std::make_shared<InlineEstimateArgs>();
  CLI::App* command = family.add_subcommand(
      "estimate", "The cost model's text size and instructions for a decision set (no compiler)");
  command->footer(
      "Examples:\n"
      "  sysgym inline estimate program=lz4 --decisions O2\n"
      "  sysgym inline estimate program=data/inline/lmdb.json --decisions mine.json --json\n"
      "  sysgym inline estimate program=lz4 objective=instructions size_limit=1.05 \\\n"
      "      --policy learned --policy-config data/policies/inline/fyp-instructions.json\n"
      "  sysgym inline estimate program=kernels --graph --json   (the call graph the browser "
      "draws)\n"
      "KEY=VALUE are inline-v0 settings (program, objective, baseline, size_limit, cost_model); "
      "the score is the env's for the decisions. The browser's view and `sysgym.inline.estimate` "
      "in the npm package answer the same request with the same figures.");
  add_env_flags(*command, args->env, true);
  CLI::Option* decisions =
      command
          ->add_option("--decisions", args->decisions,
                       "never, always, O2, Oz (clang's, as the program records them) or a "
                       "decisions file")
          ->capture_default_str();
  command
      ->add_option("--policy", args->policy,
                   "Or: the decisions of one episode of an inline-v0 policy")
      ->excludes(decisions);
  command->add_option("--policy-config", args->policy_config,
                      "The policy's parameters: JSON text or a file (learned: the policy file)");
  command->add_flag("--graph", args->graph, "Also give the call graph (functions and sites)");
  add_json_flag(*command, args->json, "the figures");
  command->callback([args] { run_estimate(*args); });
}

}  // namespace sysgym::cli
