// sysgym tensorplace zoo: the model zoo's sizes at a batch. graph: one model's (or a graph
// file's) training iteration, summarised or written as graph JSON. ilp: AutoTM's ILP solved by
// CBC for one fast-memory limit.
#include "families/tensorplace/tensorplace_commands.hpp"
#include "base/quote.hpp"

#include <chrono>
#include <cstdio>
#include <memory>

#include "base/error.hpp"
#include "catalog.hpp"
#include "families/tensorplace/cbc_solver.hpp"
#include "files.hpp"
#include "json_output.hpp"
#include "numeric_flags.hpp"
#include "output_flags.hpp"
#include "progress_bar.hpp"
#include "tensorplace/graph_json.hpp"
#include "tensorplace/reports.hpp"
#include "tensorplace/sweep.hpp"
#include "tensorplace/tensorplace_config.hpp"
#include "tensorplace/zoo/zoo.hpp"

namespace sysgym::cli {
namespace {

constexpr IntegerRange kBatchRange{1, 1 << 20};

// Which iteration: a zoo model at a batch, or a graph file.
struct GraphFlags {
  std::string model;
  std::string input;
  std::uint32_t batch = 32;

  void add(CLI::App& command) {
    command.add_option("--model", model, "A zoo model (sysgym tensorplace zoo)");
    command.add_option("--input", input, "A graph JSON file");
    add_integer_flag(command, "--batch", batch, "Images per iteration (zoo models)", kBatchRange);
  }

  tensorplace::Graph load() const {
    if (model.empty() == input.empty()) {
      throw ConfigError(
          "give a zoo model with --model (see `sysgym tensorplace zoo`) or a graph file with "
          "--input");
    }
    return input.empty() ? tensorplace::zoo_graph(model, batch)
                         : tensorplace::graph_from_json(json_option(input, "--input"), input);
  }
};

struct ZooArgs {
  std::uint32_t batch = 32;
  bool json = false;
};

struct GraphArgs {
  GraphFlags graph;
  std::string output;
  bool json = false;
};

struct SweepArgs {
  GraphFlags graph;
  std::vector<std::string> ratios = {"0", "1:8", "1:4", "1:2", "1:1", "2:1", "4:1"};
  std::vector<std::string> optimizers = tensorplace::default_sweep_optimizers();
  std::string platform = "optane";
  std::optional<double> time_limit;
  double solve_time_limit = 60;
  double gap = 0.01;
  bool json = false;
};

struct IlpArgs {
  GraphFlags graph;
  std::string fast_memory = "50%";
  std::string platform = "optane";
  std::string variant = "static";
  double time_limit = 60;
  double gap = 1e-4;
  std::string write_lp;
  std::string write_plan;
  int defrag = 0;
  bool json = false;
};

void print(const nlohmann::json& report, bool json, const std::string& text) {
  if (json) {
    print_json(report);
  } else {
    std::fputs(text.c_str(), stdout);
  }
}

void run_zoo(const ZooArgs& args) {
  const nlohmann::json report = tensorplace::zoo_report(args.batch);
  print(report, args.json, tensorplace::zoo_text(report));
}

void run_graph(const GraphArgs& args) {
  const tensorplace::Graph graph = args.graph.load();
  if (!args.output.empty()) write_json_file(args.output, tensorplace::graph_to_json(graph));
  const nlohmann::json summary = tensorplace::graph_summary(graph);
  std::string text = tensorplace::graph_summary_text(summary);
  if (!args.output.empty()) text += "wrote " + printable(args.output, 1024) + "\n";
  print(summary, args.json, text);
}

tensorplace::Platform platform_flag(const std::string& text) {
  const nlohmann::json platform =
      text.find('{') == std::string::npos ? nlohmann::json(text) : json_option(text, "--platform");
  return tensorplace::platform_from_json(platform, "--platform");
}

void run_sweep(const SweepArgs& args) {
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (args.time_limit) deadline = tensorplace::deadline_after(*args.time_limit);
  const tensorplace::Graph graph = args.graph.load();
  tensorplace::SolveOptions options;
  options.time_limit_s = args.solve_time_limit;
  options.relative_gap = args.gap;
  if (deadline) options.count_down_to(*deadline);
  ProgressBar bar("sweeping");
  const nlohmann::json report =
      tensorplace::sweep_report(graph, platform_flag(args.platform), args.ratios, args.optimizers,
                                cbc_until(deadline), options, bar.callback());
  print(report, args.json, tensorplace::sweep_text(report));
}

void run_ilp(const IlpArgs& args) {
  // --time-limit covers the command from here: loading, building, every solve and replay.
  const auto deadline = tensorplace::deadline_after(args.time_limit);
  const tensorplace::IlpVariant variant = tensorplace::parse_variant(args.variant);
  const tensorplace::Graph graph = args.graph.load();
  const tensorplace::Platform machine = platform_flag(args.platform);
  const std::uint64_t limit = tensorplace::parse_fast_memory(
      nlohmann::json(args.fast_memory), graph.peak_live_bytes(), "--fast-memory");
  if (!args.write_lp.empty())
    write_file_atomically(args.write_lp, tensorplace::build_ilp(graph, machine, limit, variant).lp);
  tensorplace::SolveOptions options;
  options.time_limit_s = args.time_limit;
  options.relative_gap = args.gap;
  options.count_down_to(deadline);
  nlohmann::json plan;
  const nlohmann::json report = tensorplace::ilp_report(
      graph, machine, limit, variant, cbc_until(deadline), options, &plan, args.defrag);
  if (!args.write_plan.empty()) {
    if (plan.is_null())
      throw Error("the solver found no plan (" + report["status"].get<std::string>() +
                  "): nothing written to " + args.write_plan);
    write_json_file(args.write_plan, plan);
  }
  print(report, args.json, tensorplace::ilp_text(report));
}

void add_zoo_command(CLI::App& family) {
  auto args = std::make_shared<ZooArgs>();
  CLI::App* command =
      family.add_subcommand("zoo", "List the model zoo with each model's size at a batch");
  command->footer(
      "Examples:\n  sysgym tensorplace zoo\n  sysgym tensorplace zoo --batch 256 --json");
  add_integer_flag(*command, "--batch", args->batch, "Images per iteration", kBatchRange);
  add_json_flag(*command, args->json, "the list");
  command->callback([args] { run_zoo(*args); });
}

void add_graph_command(CLI::App& family) {
  auto args = std::make_shared<GraphArgs>();
  CLI::App* command = family.add_subcommand(
      "graph", "Summarise a model's training iteration, or write it as graph JSON");
  command->footer(
      "Examples:\n  sysgym tensorplace graph --model vgg19 --batch 256 -o vgg19.json\n"
      "  sysgym tensorplace graph --input my_graph.json --json\n"
      "The graph JSON format (docs/file-formats.md) is what any other tool can write to model "
      "its own network.");
  args->graph.add(*command);
  add_output_option(*command, "-o,--output", args->output, "Write the graph as JSON");
  add_json_flag(*command, args->json, "the summary");
  command->callback([args] { run_graph(*args); });
}

void add_ilp_command(CLI::App& family) {
  auto args = std::make_shared<IlpArgs>();
  CLI::App* command = family.add_subcommand(
      "ilp", "Solve AutoTM's ILP for one iteration and fast-memory limit (COIN-OR CBC)");
  command->footer(
      "Examples:\n  sysgym tensorplace ilp --model vgg19 --batch 64 --fast-memory 1:1\n"
      "  sysgym tensorplace ilp --model resnet50 --fast-memory 25% --variant sync --json\n"
      "  sysgym tensorplace ilp --model vgg19 --batch 16 --variant async --write-plan plan.json\n"
      "  sysgym run tensorplace-v0 model=vgg19 batch=16 --policy plan --policy-config plan.json\n"
      "static places each tensor once; sync also moves tensors before and after their users, "
      "stalling; async also overlaps moves with nearby kernels. The solver starts from the better "
      "of the greedy and first-touch placements; at the time limit it keeps the best placement "
      "found and reports the bound and the gap.");
  args->graph.add(*command);
  command
      ->add_option("--fast-memory", args->fast_memory,
                   "A share of peak live bytes (50%), a slow:fast ratio (1:4) or a size")
      ->capture_default_str();
  command->add_option("--platform", args->platform, "optane, gpu, or JSON with fields replaced")
      ->capture_default_str();
  command->add_option("--variant", args->variant, "static, sync or async")->capture_default_str();
  add_number_flag(*command, "--time-limit", args->time_limit,
                  "Seconds the command may take: loading and building the model, each variant's "
                  "solve, the defragmentation rounds (at the limit the best plan found is kept)",
                  {0.01, 1e6});
  add_number_flag(*command, "--gap", args->gap, "Relative gap at which the solver stops", {0, 1});
  add_output_option(*command, "--write-lp", args->write_lp,
                    "Also write the model as CPLEX LP text");
  add_integer_flag(*command, "--defrag", args->defrag,
                   "AutoTM's defragmentation: at most this many solves again, the limit lowered "
                   "where the plan's best-fit heap overflows it",
                   IntegerRange{0, 100});
  add_output_option(*command, "--write-plan", args->write_plan,
                    "Also write the plan found as plan JSON (for `run --policy plan "
                    "--policy-config FILE`)");
  add_json_flag(*command, args->json, "the report");
  command->callback([args] { run_ilp(*args); });
}

void add_sweep_command(CLI::App& family) {
  auto args = std::make_shared<SweepArgs>();
  CLI::App* command = family.add_subcommand(
      "sweep", "Predicted iteration time against the fast-memory ratio for each optimizer");
  command->footer(
      "Examples:\n  sysgym tensorplace sweep --model vgg19 --batch 64\n"
      "  sysgym tensorplace sweep --model resnet200 --batch 32 --ratios 1:1,4:1 "
      "--optimizers static,first-touch --json\n"
      "Ratios are slow:fast as AutoTM gives them (4:1: fast memory is a fifth of the peak live "
      "bytes), 0 for all fast. The ILP variants are solved by CBC in the order static, sync, "
      "async, "
      "each from the best plan before it (the first from the greedy placement).");
  args->graph.add(*command);
  command->add_option("--ratios", args->ratios, "slow:fast ratios, or 0")->delimiter(',');
  command
      ->add_option(
          "--optimizers", args->optimizers,
          "all-slow, first-touch, 2lm, greedy, static, sync, async (default: all but async, "
          "the slowest to solve)")
      ->delimiter(',');
  command->add_option("--platform", args->platform, "optane, gpu, or JSON with fields replaced")
      ->capture_default_str();
  add_number_flag(*command, "--time-limit", args->time_limit,
                  "Seconds for the whole command (default: none); each ILP solve may take an "
                  "equal share of what is left, and one stopped before a plan of its own keeps "
                  "the plan that started it (marked ~)",
                  {0.01, 1e6});
  add_number_flag(*command, "--solve-time-limit", args->solve_time_limit,
                  "Seconds for each ILP solve at most", {0.01, 1e6});
  add_number_flag(*command, "--gap", args->gap, "Relative gap at which the solver stops", {0, 1});
  add_json_flag(*command, args->json, "the table");
  command->callback([args] { run_sweep(*args); });
}

}  // namespace

void add_tensorplace_commands(CLI::App& app) {
  CLI::App* family = app.add_subcommand(
      "tensorplace", "tensorplace's tools: the DNN model zoo, training-iteration graphs, the ILP");
  family->require_subcommand(1);
  add_zoo_command(*family);
  add_graph_command(*family);
  add_ilp_command(*family);
  add_sweep_command(*family);
}

}  // namespace sysgym::cli
