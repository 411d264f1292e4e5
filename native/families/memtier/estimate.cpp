// sysgym memtier estimate: the differential estimate of a trace pair for a set of HBM ranges.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/units.hpp"
#include "families/memtier/memtier_commands.hpp"
#include "json_output.hpp"
#include "memtier/estimator.hpp"
#include "memtier/reports.hpp"
#include "numeric_flags.hpp"
#include "window_flags.hpp"

namespace sysgym::cli {
namespace {

struct MemtierEstimateArgs {
  PairFlags pair;
  WindowFlags windows;
  std::vector<std::string> ranges;
  std::string measured;
  double hbm_factor = 1.0;
  bool json = false;
};

void run_estimate(const MemtierEstimateArgs& args) {
  memtier::HbmRanges hbm;
  for (const std::string& text : args.ranges) {
    for (const auto& range : memtier::parse_address_ranges(text))
      hbm.add(range);
  }
  const std::shared_ptr<const memtier::PreparedPair> loaded = args.pair.load(args.windows);
  const memtier::PreparedPair& pair = *loaded;
  std::optional<memtier::Trace> measured;
  if (!args.measured.empty()) measured = read_trace_file(args.measured);
  const nlohmann::json out =
      memtier::estimate_report(pair, hbm, args.hbm_factor, measured ? &*measured : nullptr);
  if (args.json) {
    print_json(out);
    return;
  }
  std::fputs(memtier::estimate_report_text(out, args.measured).c_str(), stdout);
}

}  // namespace

void add_estimate_command(CLI::App& app) {
  auto args = std::make_shared<MemtierEstimateArgs>();
  CLI::App* command = app.add_subcommand(
      "estimate", "Estimate the run time of a trace pair with some address ranges in HBM");
  command->footer(
      "Examples:\n"
      "  sysgym memtier estimate --ddr run.ddr.csv --hbm run.hbm.csv --hbm-range "
      "0x7f3a00000000:0x7f3a04000000\n"
      "  sysgym memtier estimate --input run.bin --hbm-range 7f3a00000000:7f3a04000000 --measured "
      "mixed.csv --json\n"
      "Ranges are hexadecimal LO:HI, half-open; a page is in HBM when its start lies in a range.");
  args->pair.add_to(*command, true);
  command->add_option("--hbm-range", args->ranges,
                      "An address range LO:HI (hex) placed in HBM; repeatable");
  command->add_option("--measured", args->measured,
                      "Trace of a measured run with the same placement: prints the relative error");
  args->windows.add_to(*command);
  add_number_flag(*command, "--hbm-factor", args->hbm_factor,
                  "Weight f of HBM samples: T = (t_ddr n_ddr + t_hbm n_hbm / f) / n",
                  memtier::kHbmFactorRange);
  add_json_flag(*command, args->json, "the report");
  command->callback([args] { run_estimate(*args); });
}

}  // namespace sysgym::cli
