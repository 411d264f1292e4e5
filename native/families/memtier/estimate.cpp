// sysgym memtier estimate: the differential estimate of a trace pair for a set of HBM ranges.
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/units.hpp"
#include "families/memtier/memtier_commands.hpp"
#include "memtier/estimator.hpp"
#include "memtier/reports.hpp"
#include "numeric_flags.hpp"
#include "window_flags.hpp"

namespace sysgym::cli {
namespace {

struct EstimateArgs {
  PairFlags pair;
  WindowFlags windows;
  std::vector<std::string> ranges;
  std::string measured;
  double hbm_factor = 1.0;
  bool json = false;
};

void run_estimate(const EstimateArgs& args) {
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
    std::printf("%s\n", out.dump(2).c_str());
    return;
  }
  auto number = [&](const char* key) { return out[key].get<double>(); };
  const std::string unit = memtier::window_unit_name(pair.options.unit);
  std::printf("windows: %zu (%zu without DDR samples), mode %s, unit %s, length %.6g %s, page %s\n",
              out["windows"].get<std::size_t>(), out["empty_windows"].get<std::size_t>(),
              memtier::window_mode_name(pair.options.mode), unit.c_str(),
              pair.options.window_len.value_or(0.0), unit.c_str(),
              format_bytes(pair.page_bytes()).c_str());
  std::printf("  DDR run          %14.3f ms\n", number("ddr_ms"));
  std::printf("  HBM run          %14.3f ms\n", number("hbm_ms"));
  const double samples = number("samples");
  std::printf("  estimated        %14.3f ms   HBM ranges: %s (%s, %.1f %% of samples)\n",
              number("estimated_ms"), hbm.empty() ? "none" : hbm.to_string().c_str(),
              format_bytes(hbm.total_bytes()).c_str(),
              samples == 0 ? 0.0 : 100.0 * number("samples_in_hbm") / samples);
  if (out.contains("gap_closed"))
    std::printf("  gap closed       %14.1f %%\n", 100.0 * number("gap_closed"));
  if (measured) {
    std::printf("  measured         %14.3f ms   (%s)\n", number("measured_ms"),
                args.measured.c_str());
    std::printf("  relative error   %14.2f %%\n", 100.0 * number("error"));
  }
}

}  // namespace

void add_estimate_command(CLI::App& app) {
  auto args = std::make_shared<EstimateArgs>();
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
  command->add_flag("--json", args->json, "Print one JSON object");
  command->callback([args] { run_estimate(*args); });
}

}  // namespace sysgym::cli
