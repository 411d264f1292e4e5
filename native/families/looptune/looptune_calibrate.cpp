// sysgym looptune calibrate: measure random nests of a few kernels on this machine and report the
// cost model's rank correlation with them; --fit fits its speeds and bandwidths and writes them.
#include <cstdio>
#include <memory>

#include "base/rank_stats.hpp"
#include "base/units.hpp"
#include "catalog.hpp"
#include "families/looptune/looptune_commands.hpp"
#include "files.hpp"
#include "json_output.hpp"
#include "looptune/calibration.hpp"
#include "looptune/limits.hpp"
#include "looptune/measure.hpp"
#include "looptune/problems.hpp"
#include "numeric_flags.hpp"
#include "output_flags.hpp"
#include "progress_bar.hpp"

namespace sysgym::cli {
namespace {

struct LooptuneCalibrateArgs {
  std::vector<std::string> kernels = {"matmul:128x192x64", "matmul:256x64x160", "matmul:64x256x256",
                                      "conv3x3:1x16x32x16x16"};
  std::int64_t nests = 100;
  std::int64_t seed = 0;
  std::string cost_model;
  std::string output;
  std::string samples;
  bool fit = false;
  bool annotations = false;
  bool json = false;
};

struct KernelSamples {
  std::string kernel;
  std::vector<looptune::CalibrationSample> samples;
};

std::vector<KernelSamples> measure_kernels(const LooptuneCalibrateArgs& args) {
  std::vector<KernelSamples> out;
  ProgressBar bar("measuring nests");
  const auto total = static_cast<std::uint64_t>(args.nests) * args.kernels.size();
  std::uint64_t done = 0;
  for (const std::string& kernel : args.kernels) {
    const auto problem = looptune::problem_from_spec(kernel);
    looptune::Measurer measurer;
    KernelSamples ks{kernel, {}};
    for (const looptune::LoopNest& nest :
         looptune::random_nests(problem, static_cast<std::size_t>(args.nests),
                                derive_seed(static_cast<std::uint64_t>(args.seed), out.size()),
                                looptune::kDefaultMaxLoops, args.annotations)) {
      ks.samples.push_back({nest, measurer.measure(nest, args.annotations).best_gflops});
      bar.update(++done, total);
    }
    out.push_back(std::move(ks));
  }
  return out;
}

nlohmann::json fit_report(const looptune::CostModel& model, const std::vector<KernelSamples>& all,
                          bool annotations) {
  nlohmann::json kernels = nlohmann::json::array();
  std::vector<looptune::CalibrationSample> pooled;
  for (const KernelSamples& ks : all) {
    kernels.push_back({{"kernel", ks.kernel},
                       {"nests", ks.samples.size()},
                       {"spearman", looptune::model_spearman(model, ks.samples, annotations)},
                       {"log_error", looptune::model_log_error(model, ks.samples, annotations)}});
    pooled.insert(pooled.end(), ks.samples.begin(), ks.samples.end());
  }
  return {{"kernels", kernels},
          {"spearman", looptune::model_spearman(model, pooled, annotations)},
          {"log_error", looptune::model_log_error(model, pooled, annotations)},
          {"cost_model", model.to_json()}};
}

void print_fit(const char* title, const nlohmann::json& r) {
  std::printf("%s\n  %-24s %6s %9s %10s\n", title, "kernel", "nests", "spearman", "log error");
  for (const nlohmann::json& k : r["kernels"])
    std::printf("  %-24s %6zu %9.3f %10.3f\n", k["kernel"].get<std::string>().c_str(),
                k["nests"].get<std::size_t>(), k["spearman"].get<double>(),
                k["log_error"].get<double>());
  std::printf("  %-24s %6s %9.3f %10.3f\n", "all", "", r["spearman"].get<double>(),
              r["log_error"].get<double>());
}

// Every nest with its micro-kernel, measured and modelled GFLOPS, for plotting.
nlohmann::json samples_json(const looptune::CostModel& model, const std::vector<KernelSamples>& all,
                            bool annotations) {
  nlohmann::json out = nlohmann::json::array();
  for (const KernelSamples& ks : all) {
    for (const looptune::CalibrationSample& s : ks.samples)
      out.push_back({{"kernel", ks.kernel},
                     {"loops", looptune::loops_to_json(s.nest)},
                     {"micro_kernel", kernel_name(looptune::pick_kernel(s.nest, annotations))},
                     {"measured_gflops", s.measured_gflops},
                     {"model_gflops", model.gflops(s.nest, annotations)}});
  }
  return out;
}

void run_calibrate(const LooptuneCalibrateArgs& args) {
  const looptune::CostModel start = looptune::CostModel::from_json(
      args.cost_model.empty() ? nlohmann::json::object()
                              : json_option(args.cost_model, "--cost-model"),
      "--cost-model");
  const std::vector<KernelSamples> all = measure_kernels(args);
  nlohmann::json report = {{"model", fit_report(start, all, args.annotations)}};
  if (args.fit) {
    std::vector<looptune::CalibrationSample> pooled;
    for (const KernelSamples& ks : all)
      pooled.insert(pooled.end(), ks.samples.begin(), ks.samples.end());
    const looptune::CostModel fitted = looptune::fit_cost_model(start, pooled, args.annotations);
    report["fitted"] = fit_report(fitted, all, args.annotations);
    if (!args.output.empty()) write_json_file(args.output, fitted.to_json(), 2);
  }
  if (!args.samples.empty())
    write_json_file(args.samples, samples_json(start, all, args.annotations), 1);
  report["peak_gflops_measured"] = looptune::probe_peak_gflops();
  if (args.json) {
    print_json(report);
    return;
  }
  print_fit(
      "the cost model against measured GFLOPS (Spearman's rank correlation; mean squared "
      "log ratio):",
      report["model"]);
  if (args.fit) {
    print_fit("fitted:", report["fitted"]);
    std::printf("fitted parameters: %s\n", report["fitted"]["cost_model"].dump().c_str());
  }
  std::printf("measured peak: %.2f GFLOPS (the model's: %.2f)\n",
              report["peak_gflops_measured"].get<double>(), start.peak_gflops());
}

}  // namespace

void add_looptune_calibrate(CLI::App& family) {
  auto args = std::make_shared<LooptuneCalibrateArgs>();
  CLI::App* command = family.add_subcommand(
      "calibrate", "Measure random nests and report (or fit) the cost model's rank correlation");
  command->footer(
      "Examples:\n  sysgym looptune calibrate\n"
      "  sysgym looptune calibrate --kernels matmul:128x128x128 --nests 300 --fit -o model.json\n"
      "  sysgym looptune tune --search greedy2 --cost-model model.json\n"
      "The nests are random: each variable split into 1 to 3 loops, the loops interleaved at "
      "random; "
      "each is measured as reward=measure does (fastest of runs over at least 10 ms).");
  command->add_option("--kernels", args->kernels, "Kernel specs to sample nests of")
      ->delimiter(',')
      ->capture_default_str();
  add_integer_flag(*command, "--nests", args->nests, "Distinct random nests per kernel",
                   {2, 100000});
  add_integer_flag(*command, "--seed", args->seed, "Seed of the random nests", {0, INT64_MAX});
  command->add_option("--cost-model", args->cost_model,
                      "Cost model parameters to start from (JSON text or a file)");
  command->add_flag("--fit", args->fit, "Fit the speeds and bandwidths to the measurements");
  add_output_option(*command, "-o,--output", args->output,
                    "Write the fitted parameters here (--fit)");
  add_output_option(*command, "--samples", args->samples,
                    "Write every nest with its measured and modelled GFLOPS here (JSON)");
  command->add_flag("--annotations", args->annotations,
                    "Sample annotation actions too and run with annotations=actions");
  add_json_flag(*command, args->json, "the report");
  command->callback([args] { run_calibrate(*args); });
}

}  // namespace sysgym::cli
