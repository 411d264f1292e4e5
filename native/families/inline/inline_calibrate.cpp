// sysgym inline calibrate: measure random decision sets of programs in real mode and report how
// well the cost model (model mode) ranks them; --fit fits its parameters and writes them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <memory>
#include <string>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "catalog.hpp"
#include "families/inline/inline_commands.hpp"
#include "families/inline/real_mode.hpp"
#include "files.hpp"
#include "inline/calibration.hpp"
#include "json_output.hpp"
#include "numeric_flags.hpp"
#include "output_flags.hpp"
#include "progress_bar.hpp"
#include "subprocess.hpp"

namespace sysgym::cli {
namespace {

struct InlineCalibrateArgs {
  std::vector<std::string> programs;
  std::int64_t sets = 40;
  std::int64_t seed = 0;
  double max_share = 1;
  double compile_timeout = 120;
  std::string cost_model;
  std::vector<std::string> from_samples;
  std::string samples;
  std::string output;
  std::string llvm_bin = kDefaultLlvmBin;
  bool no_run = false;
  bool json = false;
};

// The random sets in an order that covers their range of shares early (every 2^k-th first), so
// that an interrupted calibration has kept a spread of sets, not only the sparse ones.
std::vector<std::size_t> spread_order(std::size_t named, std::size_t total) {
  std::vector<std::size_t> order(total);
  for (std::size_t i = 0; i < total; ++i)
    order[i] = i;
  const auto reversed = [](std::size_t k) {
    std::uint32_t r = 0;
    for (int b = 0; b < 32; ++b)
      r |= ((static_cast<std::uint32_t>(k) >> b) & 1U) << (31 - b);
    return r;
  };
  std::stable_sort(
      order.begin() + static_cast<std::ptrdiff_t>(named), order.end(),
      [&](std::size_t a, std::size_t b) { return reversed(a - named) < reversed(b - named); });
  return order;
}

// Measures every set; with --samples, the file is rewritten after each one, so a calibration of
// hours that is stopped keeps what it measured.
std::vector<inlining::CalibrationSample> measure_sets(
    const InlineCalibrateArgs& args,
    const std::vector<std::unique_ptr<inlining::Program>>& programs,
    const std::vector<const inlining::Program*>& views) {
  const Toolchain tools = Toolchain::find(args.llvm_bin);
  std::vector<inlining::CalibrationSample> out;
  Rng rng(static_cast<std::uint64_t>(args.seed));
  std::vector<std::vector<inlining::Decisions>> sets;
  std::size_t total = 0;
  for (const auto& p : programs) {
    sets.push_back(
        inlining::calibration_sets(*p, static_cast<std::size_t>(args.sets), rng, args.max_share));
    total += sets.back().size();
  }
  ProgressBar bar("compiling and measuring decision sets");
  std::size_t done = 0, skipped = 0, crashed = 0;
  for (std::size_t p = 0; p < programs.size(); ++p) {
    const std::string source_dir = program_source_dir(args.programs[p], *programs[p]);
    const std::size_t named = sets[p].size() - static_cast<std::size_t>(args.sets);
    for (std::size_t k : spread_order(named, sets[p].size())) {
      const WorkDir work;
      try {
        const RealMeasurement m =
            measure_real(tools, *programs[p], source_dir,
                         {sets[p][k], "-O2", !args.no_run, false, args.compile_timeout}, work);
        out.push_back(
            {p, std::move(sets[p][k]), static_cast<double>(m.text_bytes), m.instructions});
        if (!args.samples.empty())
          write_json_file(args.samples, inlining::samples_to_json(views, out));
      } catch (const ToolTimeout&) {
        // A set that makes a unit explode is left out (and said so), not the whole calibration.
        ++skipped;
      } catch (const ToolCrashed&) {
        // So is one whose program crashes (SQLite inlining most sites overflows its 8 MiB stack
        // in the recursive parser): it has no instruction count to fit.
        ++crashed;
      }
      bar.update(++done, total);
    }
  }
  if (skipped > 0)
    std::fprintf(stderr,
                 "sysgym: warning: %zu decision sets left out: a unit compiled longer than %g s\n",
                 skipped, args.compile_timeout);
  if (crashed > 0)
    std::fprintf(stderr,
                 "sysgym: warning: %zu decision sets left out: their program crashed (a compiler "
                 "or the program under callgrind was ended by a signal)\n",
                 crashed);
  return out;
}

// Every --from-samples file's samples, in the order given.
std::vector<inlining::CalibrationSample> read_samples(
    const std::vector<std::string>& paths, const std::vector<const inlining::Program*>& views) {
  std::vector<inlining::CalibrationSample> all;
  for (const std::string& path : paths) {
    std::vector<inlining::CalibrationSample> some =
        inlining::samples_from_json(views, parse_json_text(read_text_file(path), path), path);
    std::move(some.begin(), some.end(), std::back_inserter(all));
  }
  return all;
}

nlohmann::json fit_json(const inlining::Fit& f) {
  return {{"size_spearman", f.size_spearman},
          {"size_error", f.size_error},
          {"size_pairs_ordered", f.size_pairs.ordered},
          {"size_pairs_apart", f.size_pairs.apart},
          {"instructions_spearman", f.instructions_spearman},
          {"instructions_error", f.instructions_error},
          {"instructions_pairs_ordered", f.instructions_pairs.ordered},
          {"instructions_pairs_apart", f.instructions_pairs.apart}};
}

// Per program and pooled.
nlohmann::json fits(const inlining::CostModel& model,
                    const std::vector<const inlining::ProgramModel*>& models,
                    const std::vector<inlining::CalibrationSample>& samples,
                    const std::vector<std::unique_ptr<inlining::Program>>& programs) {
  nlohmann::json per = nlohmann::json::array();
  for (std::size_t p = 0; p < programs.size(); ++p) {
    std::vector<inlining::CalibrationSample> mine;
    for (const auto& s : samples) {
      if (s.program == p) mine.push_back(s);
    }
    nlohmann::json row = fit_json(inlining::model_fit(model, models, mine));
    row["program"] = programs[p]->name;
    row["sets"] = mine.size();
    per.push_back(std::move(row));
  }
  return {{"programs", per},
          {"all", fit_json(inlining::model_fit(model, models, samples))},
          {"cost_model", model.to_json()}};
}

// "0.93 of 55%": the share ordered of the share of pairs apart ("-" when none are).
std::string pairs_cell(const nlohmann::json& p, const std::string& objective) {
  const double apart = p[objective + "_pairs_apart"].get<double>();
  if (apart == 0) return "-";
  char cell[32];
  std::snprintf(cell, sizeof cell, "%.2f of %.0f%%", p[objective + "_pairs_ordered"].get<double>(),
                100 * apart);
  return cell;
}

void print_fits(const char* title, const nlohmann::json& r) {
  std::printf("%s\n  %-10s %5s %14s %11s %12s %14s %11s %12s\n", title, "program", "sets",
              "size spearman", "size error", "size pairs", "instr spearman", "instr error",
              "instr pairs");
  for (const nlohmann::json& p : r["programs"])
    std::printf("  %-10s %5zu %14.3f %10.1f%% %12s %14.3f %10.1f%% %12s\n",
                p["program"].get<std::string>().c_str(), p["sets"].get<std::size_t>(),
                p["size_spearman"].get<double>(), 100 * p["size_error"].get<double>(),
                pairs_cell(p, "size").c_str(), p["instructions_spearman"].get<double>(),
                100 * p["instructions_error"].get<double>(), pairs_cell(p, "instructions").c_str());
}

void run_calibrate(const InlineCalibrateArgs& args) {
  std::vector<std::unique_ptr<inlining::Program>> programs;
  std::vector<const inlining::Program*> views;
  std::vector<std::unique_ptr<inlining::ProgramModel>> owned;
  std::vector<const inlining::ProgramModel*> models;
  for (const std::string& path : args.programs) {
    programs.push_back(std::make_unique<inlining::Program>(read_program(path)));
    views.push_back(programs.back().get());
    owned.push_back(std::make_unique<inlining::ProgramModel>(*programs.back()));
    models.push_back(owned.back().get());
  }
  const std::vector<inlining::CalibrationSample> samples =
      args.from_samples.empty() ? measure_sets(args, programs, views)
                                : read_samples(args.from_samples, views);
  if (!args.samples.empty())
    write_json_file(args.samples, inlining::samples_to_json(views, samples));
  const inlining::CostModel start = inlining::CostModel::from_json(
      args.cost_model.empty() ? nlohmann::json::object()
                              : json_option(args.cost_model, "--cost-model"),
      "--cost-model");
  const inlining::CostModel fitted = inlining::fit_cost_model(models, samples);
  const nlohmann::json report = {{"model", fits(start, models, samples, programs)},
                                 {"fitted", fits(fitted, models, samples, programs)}};
  if (!args.output.empty()) write_json_file(args.output, fitted.to_json(), 2);
  if (args.json) {
    print_json(report);
    return;
  }
  const std::string title =
      "the cost model against real mode (Spearman's rank correlation; mean relative error; of the "
      "pairs of sets real mode tells apart by more than " +
      std::to_string(std::lround(inlining::kPairGap * 100)) +
      " %, the share the model orders alike):";
  print_fits(title.c_str(), report["model"]);
  print_fits("fitted:", report["fitted"]);
  std::printf("fitted parameters: %s\n", fitted.to_json().dump().c_str());
}

}  // namespace

void add_inline_calibrate(CLI::App& family) {
  auto args = std::make_shared<InlineCalibrateArgs>();
  CLI::App* command = family.add_subcommand(
      "calibrate", "Measure random decision sets in real mode and fit the cost model to them");
  command->footer(
      "Examples:\n  sysgym inline calibrate --program data/inline/lz4.json --sets 40\n"
      "  sysgym inline calibrate --program a.json --program b.json --samples s.json -o model.json\n"
      "  sysgym inline calibrate --program a.json --from-samples s.json\n"
      "Per program: the never, O2, Oz and always sets, then --sets random sets inlining from 0 "
      "to --max-share of the sites clang may inline; each is compiled with its decisions forced "
      "and measured.");
  command->add_option("--program", args->programs, "Program files (repeat)")->required();
  add_integer_flag(*command, "--sets", args->sets, "Random decision sets per program", {1, 100000});
  add_integer_flag(*command, "--seed", args->seed, "Seed of the random sets", {0, INT64_MAX});
  add_number_flag(*command, "--max-share", args->max_share,
                  "The largest share of sites a random set inlines (SQLite's larger sets compile "
                  "for many minutes)",
                  {0.01, 1});
  add_compile_timeout_flag(*command, args->compile_timeout,
                           "Seconds a unit may compile before its set is left out (0: no limit)");
  command->add_option("--cost-model", args->cost_model,
                      "Cost model parameters to report (JSON text or a file)");
  command->add_option("--from-samples", args->from_samples,
                      "Refit on samples files instead of measuring (repeat to pool them)");
  add_output_option(*command, "--samples", args->samples,
                    "Write the samples here (after each set while measuring)");
  add_output_option(*command, "-o,--output", args->output, "Write the fitted parameters here");
  add_llvm_bin_flag(*command, args->llvm_bin);
  command->add_flag("--no-run", args->no_run, "Text size only (no callgrind runs)");
  add_json_flag(*command, args->json, "the report");
  command->callback([args] { run_calibrate(*args); });
}

}  // namespace sysgym::cli
