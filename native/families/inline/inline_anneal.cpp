// sysgym inline anneal: simulated annealing over a program's decision sets in model mode, from
// clang's decisions; --measure compiles the start and the best set and measures both for real.
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/quote.hpp"
#include "catalog.hpp"
#include "families/inline/inline_commands.hpp"
#include "families/inline/real_mode.hpp"
#include "files.hpp"
#include "inline/anneal.hpp"
#include "inline/inline_env.hpp"
#include "json_output.hpp"
#include "numeric_flags.hpp"
#include "output_flags.hpp"
#include "progress_bar.hpp"
#include "subprocess.hpp"

namespace sysgym::cli {
namespace {

struct AnnealArgs {
  std::string program;
  std::string objective = "size";
  double size_weight = 0.5;
  double size_limit = 0;
  std::string baseline = "auto";
  std::int64_t steps = 300;
  double t_start = 0.04;
  double t_end = 0.001;
  std::int64_t seed = 0;
  std::string cost_model;
  std::string output;
  std::string llvm_bin = kDefaultLlvmBin;
  bool measure = false;
  bool real = false;
  double compile_timeout = 120;
  bool json = false;
};

// Real mode as the annealer's cost (FYP annealed over measured run times): every set compiled
// and measured, text at -Oz for objective size, instructions (and text) at -O2 otherwise,
// relative to the start set's measurement. A set whose unit compiles past the timeout is
// rejected (infinite cost) rather than ending the search.
std::function<double(const inlining::Decisions&)> real_cost(const AnnealArgs& args,
                                                            const inlining::Program& p,
                                                            const inlining::Decisions& start,
                                                            std::size_t& evaluations) {
  auto tools = std::make_shared<Toolchain>(Toolchain::find(args.llvm_bin));
  const std::string source_dir = program_source_dir(args.program, p);
  const bool size = args.objective == "size";
  const RealBuild build{std::nullopt, size ? "-Oz" : "-O2", !size, false, args.compile_timeout};
  const auto measure = [tools, &p, source_dir, build](const inlining::Decisions& d) {
    RealBuild b = build;
    b.decisions = d;
    const WorkDir work;
    const RealMeasurement m = measure_real(*tools, p, source_dir, b, work);
    return std::pair<double, double>(static_cast<double>(m.text_bytes), m.instructions);
  };
  const auto base = measure(start);
  auto bar = std::make_shared<ProgressBar>("annealing " + p.name + " in real mode");
  const double weight = args.objective == "mix" ? args.size_weight : (size ? 1.0 : 0.0);
  const auto total = static_cast<std::uint64_t>(args.steps + 1);
  return [=, &evaluations](const inlining::Decisions& d) {
    bar->update(++evaluations, total);
    try {
      const auto [text, instructions] = measure(d);
      return weight * text / base.first +
             (weight < 1 ? (1 - weight) * instructions / base.second : 0.0);
    } catch (const ToolTimeout&) {
      return std::numeric_limits<double>::infinity();
    }
  };
}

nlohmann::json real_json(const Toolchain& tools, const inlining::Program& p,
                         const std::string& source_dir, const inlining::Decisions& d) {
  const WorkDir work;
  const RealMeasurement m = measure_real(tools, p, source_dir, {d, "-O2", true, false}, work);
  return {{"text_bytes", m.text_bytes},
          {"instructions", m.instructions},
          {"inlined_requested", m.requested},
          {"inlined_applied", m.applied}};
}

// The env of the flags: its cost is what the annealer minimises in model mode, as the env and
// the other tools (assign, bench) score a decision set.
std::unique_ptr<Env> anneal_env(const AnnealArgs& args) {
  nlohmann::json config = {{"program", args.program},
                           {"objective", args.objective},
                           {"size_weight", args.size_weight},
                           {"size_limit", args.size_limit},
                           {"baseline", args.baseline}};
  if (!args.cost_model.empty()) config["cost_model"] = json_option(args.cost_model, "--cost-model");
  std::unique_ptr<Env> env = catalog().envs.make("inline-v0", config);
  env->reset(static_cast<std::uint64_t>(args.seed));
  return env;
}

void run_anneal(const AnnealArgs& args) {
  const std::unique_ptr<Env> made = anneal_env(args);
  const auto& env = dynamic_cast<const inlining::InlineEnv&>(*made);
  const inlining::Program& p = env.program();
  const std::string& baseline = env.baseline();
  const inlining::Decisions start = inlining::decision_set(p, baseline);
  std::size_t evaluations = 0;
  const std::function<double(const inlining::Decisions&)> cost =
      args.real ? real_cost(args, p, start, evaluations)
                : [&](const inlining::Decisions& d) { return env.cost(d); };
  const inlining::AnnealResult r =
      inlining::anneal(p, cost, start,
                       {static_cast<std::size_t>(args.steps), args.t_start, args.t_end,
                        static_cast<std::uint64_t>(args.seed)});
  const nlohmann::json best = env.assess(r.best);
  const auto inlined = best["inlined"].get<std::size_t>();
  nlohmann::json report = {
      {"program", p.name},
      {"objective", args.objective},
      {"baseline", baseline},
      {"mode", args.real ? "real" : "model"},
      {"steps", args.steps},
      {"accepted", r.accepted},
      {"start_cost", r.start_cost},
      {"best_cost", r.best_cost},
      {"best_model", {{"text_bytes", best["text_bytes"]}, {"instructions", best["instructions"]}}},
      {"best_inlined", inlined}};
  if (args.measure) {
    const Toolchain tools = Toolchain::find(args.llvm_bin);
    const std::string source_dir = program_source_dir(args.program, p);
    report["start_real"] = real_json(tools, p, source_dir, start);
    report["best_real"] = real_json(tools, p, source_dir, r.best);
  }
  if (!args.output.empty()) write_json_file(args.output, inlining::decisions_to_json(p, r.best), 1);
  if (args.json) {
    print_json(report);
    return;
  }
  std::printf(
      "%s, %s relative to clang's %s decisions (%s mode): %.4f -> %.4f in %lld steps (%zu "
      "accepted); best "
      "inlines %zu of %zu sites (model: %.0f text bytes, %.0f instructions)\n",
      printable(p.name).c_str(), args.objective.c_str(), baseline.c_str(),
      args.real ? "real" : "model", r.start_cost, r.best_cost, static_cast<long long>(args.steps),
      r.accepted, inlined, p.sites.size(), best["text_bytes"].get<double>(),
      best["instructions"].get<double>());
  if (args.measure) {
    for (const char* which : {"start_real", "best_real"})
      std::printf("  %-10s real: %lld text bytes, %.0f instructions\n", which,
                  report[which]["text_bytes"].get<long long>(),
                  report[which]["instructions"].get<double>());
  }
}

}  // namespace

void add_inline_anneal(CLI::App& family) {
  auto args = std::make_shared<AnnealArgs>();
  CLI::App* command = family.add_subcommand(
      "anneal", "Simulated annealing over decision sets in model mode (the practical optimum)");
  command->footer(
      "Examples:\n  sysgym inline anneal --program data/inline/lz4.json -o best.json\n"
      "  sysgym inline anneal --program p.json --objective instructions --steps 3000 --measure\n"
      "Starts from clang's decisions (the baseline), mutates (flip a site, a few sites of one "
      "caller, or a site with its callee's sites), accepts a worse set with probability "
      "exp(-worse / T), T falling geometrically from --t-start to --t-end.");
  command->add_option("--program", args->program, "A program file")->required();
  command->add_option("--objective", args->objective, "size, instructions or mix")
      ->check(CLI::IsMember({"size", "instructions", "mix"}))
      ->capture_default_str();
  command->add_option("--size-weight", args->size_weight, "objective mix: the size's weight")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  command
      ->add_option("--size-limit", args->size_limit,
                   "Text share of the baseline's above which each point costs ten (0: none)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  command->add_option("--baseline", args->baseline, "auto, Oz, O2 or never: the start and the 1")
      ->check(CLI::IsMember({"auto", "Oz", "O2", "never"}))
      ->capture_default_str();
  add_integer_flag(*command, "--steps", args->steps, "Annealing steps", {1, 100000000});
  command->add_option("--t-start", args->t_start, "First temperature")->capture_default_str();
  command->add_option("--t-end", args->t_end, "Last temperature")->capture_default_str();
  add_integer_flag(*command, "--seed", args->seed, "Seed of the mutations", {0, INT64_MAX});
  command->add_option("--cost-model", args->cost_model, "Cost model parameters (JSON or a file)");
  add_output_option(*command, "-o,--output", args->output, "Write the best decisions here");
  command->add_flag("--measure", args->measure, "Measure the start and the best set for real");
  command->add_flag("--real", args->real,
                    "Anneal in real mode: every set compiled and measured (size: text at -Oz; "
                    "instructions: at -O2)");
  add_compile_timeout_flag(*command, args->compile_timeout,
                           "--real: seconds a unit may compile before its set is rejected");
  add_llvm_bin_flag(*command, args->llvm_bin);
  add_json_flag(*command, args->json, "the report");
  command->callback([args] { run_anneal(*args); });
}

}  // namespace sysgym::cli
