// sysgym tensorplace zoo: the model zoo's sizes at a batch. sysgym tensorplace graph: one model's
// (or a graph file's) training iteration, summarised or written as graph JSON.
#include "families/tensorplace/tensorplace_commands.hpp"

#include <cstdio>
#include <memory>

#include "base/error.hpp"
#include "catalog.hpp"
#include "files.hpp"
#include "numeric_flags.hpp"
#include "tensorplace/graph_json.hpp"
#include "tensorplace/reports.hpp"
#include "tensorplace/zoo/zoo.hpp"

namespace sysgym::cli {
namespace {

constexpr IntegerRange kBatchRange{1, 1 << 20};

struct ZooArgs {
  std::uint32_t batch = 32;
  bool json = false;
};

struct GraphArgs {
  std::string model;
  std::string input;
  std::uint32_t batch = 32;
  std::string output;
  bool json = false;
};

void run_zoo(const ZooArgs& args) {
  const nlohmann::json report = tensorplace::zoo_report(args.batch);
  if (args.json) {
    std::printf("%s\n", report.dump(2).c_str());
  } else {
    std::fputs(tensorplace::zoo_text(report).c_str(), stdout);
  }
}

void run_graph(const GraphArgs& args) {
  if (args.model.empty() == args.input.empty())
    throw ConfigError(
        "give a zoo model with --model (see `sysgym tensorplace zoo`) or a graph file with "
        "--input");
  const tensorplace::Graph graph =
      args.input.empty()
          ? tensorplace::zoo_graph(args.model, args.batch)
          : tensorplace::graph_from_json(json_option(args.input, "--input"), args.input);
  if (!args.output.empty())
    write_file_atomically(args.output, tensorplace::graph_to_json(graph).dump() + "\n");
  const nlohmann::json summary = tensorplace::graph_summary(graph);
  if (args.json) {
    std::printf("%s\n", summary.dump(2).c_str());
    return;
  }
  std::fputs(tensorplace::graph_summary_text(summary).c_str(), stdout);
  if (!args.output.empty()) std::printf("wrote %s\n", args.output.c_str());
}

void add_zoo_command(CLI::App& family) {
  auto args = std::make_shared<ZooArgs>();
  CLI::App* command =
      family.add_subcommand("zoo", "List the model zoo with each model's size at a batch");
  command->footer(
      "Examples:\n  sysgym tensorplace zoo\n  sysgym tensorplace zoo --batch 256 --json");
  add_integer_flag(*command, "--batch", args->batch, "Images per iteration", kBatchRange);
  command->add_flag("--json", args->json, "Print a JSON list");
  command->callback([args] { run_zoo(*args); });
}

void add_graph_command(CLI::App& family) {
  auto args = std::make_shared<GraphArgs>();
  CLI::App* command = family.add_subcommand(
      "graph", "Summarise a model's training iteration, or write it as graph JSON");
  command->footer(
      "Examples:\n  sysgym tensorplace graph --model vgg19 --batch 256 -o vgg19.json\n"
      "  sysgym tensorplace graph --input my_graph.json --json\n"
      "The graph JSON format (README, File formats) is what any other tool can write to model "
      "its own network.");
  command->add_option("--model", args->model, "A zoo model (sysgym tensorplace zoo)");
  command->add_option("--input", args->input, "A graph JSON file");
  add_integer_flag(*command, "--batch", args->batch, "Images per iteration (zoo models)",
                   kBatchRange);
  command->add_option("-o,--output", args->output, "Write the graph as JSON");
  command->add_flag("--json", args->json, "Print the summary as JSON");
  command->callback([args] { run_graph(*args); });
}

}  // namespace

void add_tensorplace_commands(CLI::App& app) {
  CLI::App* family = app.add_subcommand(
      "tensorplace", "tensorplace's tools: the DNN model zoo and training-iteration graphs");
  family->require_subcommand(1);
  add_zoo_command(*family);
  add_graph_command(*family);
}

}  // namespace sysgym::cli
