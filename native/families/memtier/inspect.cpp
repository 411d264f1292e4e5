// sysgym memtier inspect: what a trace or preprocessed file holds (memtier/inspect_report).
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "families/memtier/memtier_commands.hpp"
#include "files.hpp"
#include "json_output.hpp"
#include "memtier/inspect_report.hpp"
#include "memtier/prepared_pair.hpp"
#include "numeric_flags.hpp"
#include "progress_bar.hpp"
#include "window_flags.hpp"

namespace sysgym::cli {
namespace {

struct InspectArgs {
  std::string file;
  memtier::InspectOptions options;
  bool json = false;
};

void run_inspect(const InspectArgs& args) {
  const MappedFile file(args.file);
  ProgressBar bar("reading " + args.file);
  const nlohmann::json out =
      memtier::inspect_report(file.bytes(), args.file, args.options, bar.callback());
  if (args.json) {
    print_json(out);
  } else {
    std::fputs(memtier::inspect_text(out).c_str(), stdout);
  }
}

}  // namespace

void add_inspect_command(CLI::App& app) {
  auto args = std::make_shared<InspectArgs>();
  CLI::App* command = app.add_subcommand("inspect", "Show what a trace or preprocessed file holds");
  command->footer(
      "Examples:\n  sysgym memtier inspect data/synth/phased.ddr.csv\n  sysgym memtier inspect "
      "run.bin --json");
  command
      ->add_option("file", args->file, "A trace (CSV, perf script, binary) or a preprocessed pair")
      ->required();
  add_integer_flag(*command, "--page-size", args->options.page_size,
                   "log2 of the page size for footprints", memtier::kPageSizeBitsRange);
  add_integer_flag(*command, "--interval-distance", args->options.interval_distance,
                   "Pages closer than 2^N bytes belong to one region",
                   memtier::kIntervalDistanceRange);
  add_number_flag(*command, "--cpu-cycles-per-ms", args->options.cpu_cycles_per_ms,
                  "CPU cycles per millisecond", memtier::kCpuCyclesPerMsRange);
  add_json_flag(*command, args->json, "the report");
  command->callback([args] { run_inspect(*args); });
}

}  // namespace sysgym::cli
