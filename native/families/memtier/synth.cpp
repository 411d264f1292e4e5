// sysgym memtier synth: deterministic synthetic trace pairs for tests, demos and benchmarks.
#include <cstdio>
#include <memory>

#include "base/quote.hpp"
#include "base/units.hpp"
#include "families/memtier/memtier_commands.hpp"
#include "memtier/hbm_ranges.hpp"
#include "memtier/traces/synth.hpp"
#include "numeric_flags.hpp"
#include "output_flags.hpp"
#include "trace_output.hpp"

namespace sysgym::cli {
namespace {

struct SynthArgs {
  memtier::SynthOptions options;
  std::string footprint = "256MiB";
  std::string format = "csv";
  std::vector<std::string> mixed;
  std::string prefix;
};

void run_synth(SynthArgs& args) {
  args.options.footprint_bytes = parse_byte_size(args.footprint);
  memtier::HbmRanges mixed;
  for (const std::string& text : args.mixed) {
    for (const auto& range : memtier::parse_address_ranges(text))
      mixed.add(range);
  }
  const memtier::TracePair pair = memtier::synthesize_pair(args.options);
  const std::string extension = args.format == "csv" ? ".csv" : ".bin";
  std::vector<TraceOutput> outputs = {{args.prefix + ".ddr" + extension, &pair.ddr},
                                      {args.prefix + ".hbm" + extension, &pair.hbm}};
  memtier::Trace mixed_run;
  if (!mixed.empty()) {
    mixed_run = memtier::synthesize_mixed(args.options, mixed);
    mixed_run.set_id = pair.ddr.set_id;
    outputs.push_back({args.prefix + ".mixed" + extension, &mixed_run});
  }
  write_trace_set(outputs, args.format);
  for (const TraceOutput& output : outputs)
    std::printf("wrote %s (%zu samples)\n", printable(output.path, 1024).c_str(),
                output.trace->size());
}

}  // namespace

void add_synth_command(CLI::App& app) {
  auto args = std::make_shared<SynthArgs>();
  CLI::App* command = app.add_subcommand("synth", "Generate a synthetic DDR/HBM trace pair");
  command->footer(
      "Patterns: stream (STREAM triad), phased (a hot set per phase), random (GUPS-like),\n"
      "stencil (3-D 7-point), family (the seed draws phases, hot sets and drift). Writes "
      "PREFIX.ddr.csv and PREFIX.hbm.csv (or .bin), and with\n"
      "--mixed a modeled run with those ranges in HBM (PREFIX.mixed.csv) for --measured.\n"
      "Example:\n  sysgym memtier synth --pattern phased --samples 200000 --seed 7 -o /tmp/phased");
  command->add_option("--pattern", args->options.pattern, "Workload pattern")
      ->required()
      ->check(CLI::IsMember(memtier::synth_patterns()));
  add_integer_flag(*command, "--samples", args->options.samples, "Number of samples",
                   memtier::kSynthSamplesRange);
  add_integer_flag(*command, "--seed", args->options.seed, "Random seed", kSeedRange);
  command->add_option("--footprint", args->footprint, "Data footprint (e.g. 256MiB)")
      ->capture_default_str();
  add_integer_flag(*command, "--period", args->options.sample_period,
                   "Instructions between samples", memtier::kSynthPeriodRange);
  add_integer_flag(*command, "--phases", args->options.phases, "Phases of the phased pattern",
                   memtier::kSynthPhasesRange);
  command->add_option("--format", args->format, "Output format")
      ->capture_default_str()
      ->check(CLI::IsMember({"csv", "bin"}));
  command->add_option("--mixed", args->mixed, "Also write a run with these LO:HI ranges in HBM");
  add_output_option(*command, "-o,--output", args->prefix, "Output prefix")->required();
  command->callback([args] { run_synth(*args); });
}

}  // namespace sysgym::cli
