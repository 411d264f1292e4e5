// sysgym looptune tune: one search (or a learned policy) on one kernel, reported with the
// cost model's GFLOPS and the measured ones before and after, and both nests.
#include "families/looptune/looptune_commands.hpp"

#include <cstdio>
#include <memory>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/units.hpp"
#include "catalog.hpp"
#include "families/looptune/tuning.hpp"
#include "json_output.hpp"
#include "looptune/measure.hpp"
#include "looptune/search_policy.hpp"
#include "numeric_flags.hpp"

namespace sysgym::cli {
namespace {

struct TuneArgs {
  std::string kernel = "matmul:128x192x64";
  std::string problem;
  std::string search = "greedy2";
  std::string policy_config;
  std::string cost_model;
  std::string budget;
  std::int64_t evaluations = 0;
  std::int64_t steps = 10;
  bool measure = false;
  bool annotations = false;
  bool json = false;
};

nlohmann::json nest_report(const looptune::LoopNest& nest, double model_gflops,
                           looptune::Measurer& measurer, bool annotations) {
  const looptune::Measurement m = measurer.measure(nest, annotations);
  return {{"model_gflops", model_gflops},
          {"measured_gflops", m.best_gflops},
          {"measured_median_gflops", m.median_gflops},
          {"loops", looptune::loops_to_json(nest)},
          {"text", nest.to_text()}};
}

void run_tune(const TuneArgs& args) {
  // learned:FILE is the learned policy with FILE as its parameters.
  std::string search = args.search;
  std::string parameters = args.policy_config;
  if (search.rfind("learned:", 0) == 0) {
    parameters = search.substr(8);
    search = "learned";
  }
  nlohmann::json policy_config =
      parameters.empty() ? nlohmann::json::object() : json_option(parameters, "--policy-config");
  if (args.evaluations > 0 && !looptune::is_planning_search(search))
    throw ConfigError("--evaluations is for the searches that plan (beam, rollouts, anneal), not " +
                      quote(search) + "; --budget bounds any policy's time");
  if (args.evaluations > 0) policy_config["evaluations"] = args.evaluations;
  const double budget = args.budget.empty() ? 0.0 : parse_duration(args.budget);
  nlohmann::json settings = {{"episode_length", args.steps},
                             {"reward", args.measure ? "measure" : "model"},
                             {"annotations", args.annotations ? "actions" : "auto"}};
  if (args.problem.empty()) {
    settings["kernel"] = args.kernel;
  } else {
    settings["problem"] = args.problem;
  }
  if (!args.cost_model.empty())
    settings["cost_model"] = json_option(args.cost_model, "--cost-model");
  // Both nests are measured at the end: a kernel too large to measure is refused before the
  // search, with what works instead.
  const std::string model_only =
      "tune it on the cost model alone: sysgym run looptune-v0 " +
      printable(args.problem.empty() ? "kernel=" + args.kernel : "problem=" + args.problem) +
      " --policy " + printable(search == "learned" ? parameters : search);
  const auto measurable = [&](const looptune::LooptuneEnv& env) {
    for (const auto& problem : env.problems())
      looptune::check_measurable(problem, env.cost_model(), args.annotations, model_only);
  };
  const Tuning t = run_tuning(search, policy_config, settings, measurable, budget);
  const auto& env = dynamic_cast<const looptune::LooptuneEnv&>(*t.env);
  const looptune::LoopNest& after = t.tuned();
  const looptune::LoopNest before = looptune::LoopNest::initial(after.problem_ptr());
  // The env's measurements: with --measure the two nests were measured during the episode, and
  // measuring them again would cost as long (and give other figures than the search saw).
  looptune::Measurer& measurer = env.measurer();
  const nlohmann::json& s = t.episode.summary;
  const auto measured = [&](const looptune::LoopNest& nest, const char* which, double gflops) {
    // A measurement is one call: the estimate beforehand is the progress there is.
    if (env.cost_model().seconds(nest, args.annotations) >= 1.0) {
      std::fprintf(stderr, "measuring the %s nest: %s\n", which,
                   looptune::measuring_estimate(nest, env.cost_model(), args.annotations).c_str());
      std::fflush(stderr);
    }
    return nest_report(nest, gflops, measurer, args.annotations);
  };
  const nlohmann::json base = measured(before, "untuned", s["start_gflops"].get<double>());
  const nlohmann::json tuned = measured(after, "tuned", s["best_gflops"].get<double>());
  // A tuner never hands back a slower nest than it was given: when the nest the search kept
  // (the best by its reward) measures slower than the untuned one, the untuned one is the result.
  const bool kept_untuned =
      tuned["measured_gflops"].get<double>() < base["measured_gflops"].get<double>();
  const nlohmann::json& best = kept_untuned ? base : tuned;
  const looptune::LoopNest& result = kept_untuned ? before : after;
  const double measured_speedup =
      best["measured_gflops"].get<double>() / base["measured_gflops"].get<double>();
  const nlohmann::json report = {
      {"kernel", after.problem().name},
      {"search", args.search},
      {"evaluations", t.evaluations},
      {"budget_exhausted", t.budget_exhausted},
      {"reward", args.measure ? "measure" : "model"},
      {"actions", s["steps"]},
      {"illegal_actions", s["illegal_actions"]},
      {"search_seconds", t.seconds},
      // What the search reached on its reward; the measured figures are the nest kept.
      {"model_speedup", tuned["model_gflops"].get<double>() / base["model_gflops"].get<double>()},
      {"measured_speedup", measured_speedup},
      {"kept_untuned", kept_untuned},
      {"before", base},
      {"after", best},
      {"tuned", tuned}};
  if (args.json) {
    print_json(report);
    return;
  }
  std::printf("%s with %s: %lld actions in %.3f s", printable(after.problem().name).c_str(),
              args.search.c_str(), static_cast<long long>(s["steps"].get<std::int64_t>()),
              t.seconds);
  if (looptune::is_planning_search(search)) {
    std::printf(" (%lld schedules evaluated%s)", static_cast<long long>(t.evaluations),
                t.budget_exhausted ? ", the budget spent" : "");
  } else if (t.budget_exhausted) {
    std::printf(" (the budget spent)");
  }
  std::printf("\n");
  std::printf("GFLOPS        before    after  speedup\n");
  std::printf("model      %9.3f %8.3f %7.2fx\n", base["model_gflops"].get<double>(),
              tuned["model_gflops"].get<double>(), report["model_speedup"].get<double>());
  std::printf("measured   %9.3f %8.3f %7.2fx  (fastest run; median %.3f / %.3f)\n",
              base["measured_gflops"].get<double>(), best["measured_gflops"].get<double>(),
              measured_speedup, base["measured_median_gflops"].get<double>(),
              best["measured_median_gflops"].get<double>());
  if (kept_untuned) {
    std::printf("kept the untuned nest: the tuned one measured %.3f GFLOPS (%.2fx), slower\n",
                tuned["measured_gflops"].get<double>(),
                tuned["measured_gflops"].get<double>() / base["measured_gflops"].get<double>());
  }
  std::printf("before:\n%safter:\n%s", before.to_text().c_str(), result.to_text().c_str());
}

}  // namespace

void add_looptune_commands(CLI::App& app) {
  CLI::App* family = app.add_subcommand(
      "looptune",
      "LoopTune's tools: tune a loop nest, calibrate the cost model, benchmark the searches");
  family->require_subcommand(1);
  auto args = std::make_shared<TuneArgs>();
  CLI::App* command = family->add_subcommand(
      "tune", "Tune one kernel's loop nest with a search or a learned policy");
  command->footer(
      "Examples:\n  sysgym looptune tune --kernel matmul:128x192x64 --search greedy2\n"
      "  sysgym looptune tune --kernel conv3x3:1x16x32x16x16 --search random --steps 30 --json\n"
      "  sysgym looptune tune --kernel matmul:64x256x128 --search learned:policy.json\n"
      "  sysgym looptune tune --kernel matmul:256x256x256 --search beam4bfs --budget 10s\n"
      "The search acts on the cost model's GFLOPS (--measure: on measured ones); both nests are "
      "measured at the end either way.");
  command->add_option("--kernel", args->kernel, "matmul:MxNxK or conv3x3:NxCxKxHxW")
      ->capture_default_str();
  command->add_option("--problem", args->problem, "A problem JSON file instead of --kernel");
  command
      ->add_option("--search", args->search,
                   "greedy1, greedy2, beam2bfs, beam4bfs, beam2dfs, beam4dfs, rollouts, anneal, "
                   "random, or learned:FILE (any looptune policy)")
      ->capture_default_str();
  command->add_option("--policy-config", args->policy_config, "Parameters of the search");
  command->add_option("--cost-model", args->cost_model,
                      "Cost model parameters (JSON text or a file, e.g. from calibrate --fit)");
  add_integer_flag(*command, "--steps", args->steps, "Actions the search takes", {1, 1000});
  command->add_option("--budget", args->budget,
                      "Time the tuning may take, measuring the untuned nest included (\"10s\", "
                      "\"500ms\"; any policy; default: a planning search's 2000 evaluations)");
  add_integer_flag(*command, "--evaluations", args->evaluations,
                   "Distinct schedules a planning search may evaluate", {0, 100'000'000});
  command->add_flag("--measure", args->measure, "Search on measured GFLOPS");
  command->add_flag("--annotations", args->annotations,
                    "Micro-kernels only where unroll / vectorize actions ask");
  add_json_flag(*command, args->json, "the report");
  command->callback([args] { run_tune(*args); });
  add_looptune_calibrate(*family);
  add_looptune_bench(*family);
  add_looptune_imitate(*family);
}

}  // namespace sysgym::cli
