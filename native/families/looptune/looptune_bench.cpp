// sysgym looptune bench: LoopTune's table. Every search (and a learned policy) tunes each problem
// of a held-out set; the table gives the geometric-mean speedup over the untuned nest (by the
// cost model and measured), the best tuned nest against OpenBLAS's sgemm, and the search time.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include "base/error.hpp"
#include "base/rank_stats.hpp"
#include "base/units.hpp"
#include "catalog.hpp"
#include "families/looptune/looptune_commands.hpp"
#include "families/looptune/openblas.hpp"
#include "families/looptune/tuning.hpp"
#include "json_output.hpp"
#include "looptune/executor_bench.hpp"
#include "looptune/measure.hpp"
#include "looptune/problems.hpp"
#include "looptune/search_policy.hpp"
#include "numeric_flags.hpp"
#include "progress_bar.hpp"

namespace sysgym::cli {
namespace {

struct BenchArgs {
  std::string set = "matmul-test";
  std::int64_t problems = 20;
  std::vector<std::string> searches = {"greedy1",  "greedy2",  "beam2bfs", "beam4bfs",
                                       "beam2dfs", "beam4dfs", "rollouts", "anneal"};
  std::string policy;
  std::string budget;
  std::int64_t steps = 10;
  bool blas = true;
  bool executor = false;
  bool json = false;
};

struct Row {
  double model_speedup = 0;
  double measured_speedup = 0;
  double measured_gflops = 0;
  double seconds = 0;
  std::int64_t evaluations = 0;
};

Row tune(const std::string& spec, const std::string& search, const BenchArgs& args,
         looptune::Measurer& measurer) {
  nlohmann::json policy_config = nlohmann::json::object();
  if (search == "learned") policy_config = json_option(args.policy, "--policy");
  const Tuning t =
      run_tuning(search, policy_config, {{"kernel", spec}, {"episode_length", args.steps}}, {},
                 args.budget.empty() ? 0.0 : parse_duration(args.budget));
  const looptune::LoopNest& after = t.tuned();
  const double before =
      measurer.measure(looptune::LoopNest::initial(after.problem_ptr()), false).best_gflops;
  Row row;
  row.seconds = t.seconds;
  // As `looptune tune` does: a tuned nest that measures slower than the untuned one is not kept.
  row.measured_gflops = std::max(before, measurer.measure(after, false).best_gflops);
  row.measured_speedup = row.measured_gflops / before;
  row.model_speedup = t.episode.summary["best_speedup"].get<double>();
  row.evaluations = t.evaluations;
  return row;
}

// The executor's benchmark nests (looptune/executor_bench.hpp), measured here.
void run_executor_bench(const BenchArgs& args) {
  ProgressBar bar("measuring");
  const nlohmann::json nests = looptune::executor_bench(0.01, bar.callback());
  if (args.json) {
    print_json(nests);
    return;
  }
  std::printf("%-24s %-9s %-15s %9s %9s\n", "kernel", "found by", "micro-kernel", "GFLOPS",
              "median");
  for (const nlohmann::json& n : nests)
    std::printf("%-24s %-9s %-15s %9.2f %9.2f\n", n["kernel"].get<std::string>().c_str(),
                n["found_by"].get<std::string>().c_str(),
                n["micro_kernel"].get<std::string>().c_str(), n["gflops"].get<double>(),
                n["median_gflops"].get<double>());
}

void run_bench(const BenchArgs& args) {
  if (args.executor) {
    run_executor_bench(args);
    return;
  }
  std::vector<std::string> specs = looptune::problem_set(args.set);
  if (specs.empty()) specs = {args.set};  // one kernel spec
  if (args.problems > 0 && specs.size() > static_cast<std::size_t>(args.problems))
    specs.resize(static_cast<std::size_t>(args.problems));
  std::vector<std::string> searches = args.searches;
  if (!args.policy.empty()) searches.emplace_back("learned");
  std::unique_ptr<OpenBlas> blas;
  if (args.blas) blas = std::make_unique<OpenBlas>();
  std::map<std::string, std::vector<Row>> rows;
  nlohmann::json problems = nlohmann::json::array();
  std::vector<double> blas_ratio;
  ProgressBar bar("tuning");
  std::uint64_t done = 0;
  for (const std::string& spec : specs) {
    looptune::Measurer measurer;
    nlohmann::json p = {{"kernel", spec}};
    double best_tuned = 0;
    for (const std::string& search : searches) {
      const Row r = tune(spec, search, args, measurer);
      rows[search].push_back(r);
      best_tuned = std::max(best_tuned, r.measured_gflops);
      p[search] = {{"model_speedup", r.model_speedup},
                   {"measured_speedup", r.measured_speedup},
                   {"measured_gflops", r.measured_gflops},
                   {"seconds", r.seconds},
                   {"evaluations", r.evaluations}};
      bar.update(++done, specs.size() * searches.size());
    }
    const auto problem = looptune::problem_from_spec(spec);
    if (blas && spec.rfind("matmul:", 0) == 0) {
      const double g =
          blas->sgemm_gflops(problem->vars[0].size, problem->vars[1].size, problem->vars[2].size);
      p["openblas_gflops"] = g;
      p["best_tuned_gflops"] = best_tuned;
      blas_ratio.push_back(best_tuned / g);
    }
    problems.push_back(p);
  }
  nlohmann::json table = nlohmann::json::array();
  for (const std::string& search : searches) {
    std::vector<double> model, measured, gflops;
    double seconds = 0;
    double evaluations = 0;
    for (const Row& r : rows[search]) {
      model.push_back(r.model_speedup);
      measured.push_back(r.measured_speedup);
      gflops.push_back(r.measured_gflops);
      seconds += r.seconds;
      evaluations += static_cast<double>(r.evaluations);
    }
    const double n = static_cast<double>(rows[search].size());
    table.push_back({{"search", search},
                     {"model_speedup", geometric_mean(model)},
                     {"measured_speedup", geometric_mean(measured)},
                     {"measured_gflops", geometric_mean(gflops)},
                     {"mean_seconds", seconds / n}});
    // Only the planning searches count their evaluations.
    if (looptune::is_planning_search(search)) table.back()["mean_evaluations"] = evaluations / n;
  }
  nlohmann::json report = {
      {"set", args.set},     {"problems", specs.size()},
      {"steps", args.steps}, {"budget", args.budget.empty() ? "2000 evaluations" : args.budget},
      {"table", table},      {"per_problem", problems}};
  if (blas) {
    report["openblas"] = blas->description();
    report["best_over_openblas"] = geometric_mean(blas_ratio);
  }
  if (args.json) {
    print_json(report);
    return;
  }
  std::printf("%s: %zu problems, %lld actions, budget %s (geometric means)\n", args.set.c_str(),
              specs.size(), static_cast<long long>(args.steps),
              report["budget"].get<std::string>().c_str());
  std::printf("%-10s %14s %17s %16s %12s %12s\n", "search", "model speedup", "measured speedup",
              "measured GFLOPS", "time (s)", "evaluations");
  for (const nlohmann::json& t : table) {
    std::printf("%-10s %13.2fx %16.2fx %16.2f %12.4f", t["search"].get<std::string>().c_str(),
                t["model_speedup"].get<double>(), t["measured_speedup"].get<double>(),
                t["measured_gflops"].get<double>(), t["mean_seconds"].get<double>());
    if (t.contains("mean_evaluations")) {
      std::printf(" %12.0f\n", t["mean_evaluations"].get<double>());
    } else {
      std::printf(" %12s\n", "-");
    }
  }
  if (blas && !blas_ratio.empty())
    std::printf("best tuned nest / OpenBLAS sgemm (one thread): %.2f\nOpenBLAS: %s\n",
                report["best_over_openblas"].get<double>(), blas->description().c_str());
}

}  // namespace

void add_looptune_bench(CLI::App& family) {
  auto args = std::make_shared<BenchArgs>();
  CLI::App* command = family.add_subcommand(
      "bench", "LoopTune's table: every search and a learned policy over a held-out set");
  command->footer(
      "Examples:\n  sysgym looptune bench\n"
      "  sysgym looptune bench --set matmul-test --problems 0 --budget 1s\n"
      "  sysgym looptune bench --policy data/policies/looptune/looptune-dqn.json --searches "
      "greedy2\n"
      "Searches act on the cost model; the untuned and tuned nests are measured here.");
  command->add_option("--set", args->set, "A problem set (matmul-test, conv-test, ...) or a kernel")
      ->capture_default_str();
  add_integer_flag(*command, "--problems", args->problems, "The set's first N problems (0: all)",
                   {0, 100000});
  command->add_option("--searches", args->searches, "Searches to run")
      ->delimiter(',')
      ->capture_default_str();
  command->add_option("--policy", args->policy, "A learned policy file, run beside them");
  command->add_option("--budget", args->budget,
                      "Time each policy may take per problem (\"1s\"; default: a planning "
                      "search's 2000 evaluations)");
  add_integer_flag(*command, "--steps", args->steps, "Actions per episode", {1, 1000});
  command->add_flag("!--no-blas", args->blas, "Leave out OpenBLAS");
  command->add_flag("--executor", args->executor,
                    "Instead: the executor's benchmark nests, measured (as sysgym.looptune."
                    "executorBench() in the npm package)");
  add_json_flag(*command, args->json, "the report");
  command->callback([args] { run_bench(*args); });
}

}  // namespace sysgym::cli
