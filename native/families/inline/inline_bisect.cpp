// sysgym inline bisect: which decisions account for what real mode measures between two decision
// sets (core/inline/bisection.hpp), two builds at a time.
#include <cmath>
#include <cstdio>
#include <memory>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "families/inline/inline_commands.hpp"
#include "families/inline/real_mode.hpp"
#include "inline/bisection.hpp"
#include "json_output.hpp"
#include "numeric_flags.hpp"
#include "progress_bar.hpp"
#include "thread_pool.hpp"

namespace sysgym::cli {
namespace {

struct BisectArgs {
  std::string program;
  std::string from;
  std::string to;
  std::string metric = "instructions";
  double min_share = 0.25;
  std::size_t jobs = 2;
  double compile_timeout = 0;
  std::string source_dir;
  std::string llvm_bin = kDefaultLlvmBin;
  bool json = false;
};

// Measures sets, `jobs` builds at a time, each in a folder of its own.
class Measurer {
 public:
  Measurer(const BisectArgs& args, const inlining::Program& program)
      : program_(program),
        tools_(Toolchain::find(args.llvm_bin)),
        source_dir_(args.source_dir.empty() ? program_source_dir(args.program, program)
                                            : args.source_dir),
        instructions_(args.metric == "instructions"),
        timeout_(args.compile_timeout),
        pool_(args.jobs) {}

  std::pair<RealMeasurement, RealMeasurement> pair(const inlining::Decisions& a,
                                                   const inlining::Decisions& b) {
    RealMeasurement out[2];
    const inlining::Decisions* sets[2] = {&a, &b};
    pool_.parallel_for(2, [&](std::size_t k) {
      const WorkDir work;
      out[k] = measure_real(tools_, program_, source_dir_,
                            {*sets[k], "-O2", instructions_, false, timeout_}, work);
    });
    return {std::move(out[0]), std::move(out[1])};
  }
  double value(const RealMeasurement& m) const {
    return instructions_ ? m.instructions : static_cast<double>(m.text_bytes);
  }

 private:
  const inlining::Program& program_;
  Toolchain tools_;
  std::string source_dir_;
  bool instructions_;
  double timeout_;
  ThreadPool pool_;
};

// A group as clang's replay names the call it decides: UNIT|CALLER:LINE:COLUMN|CALLEE.
std::string group_id(const inlining::Program& p, const inlining::CallGroup& g) {
  const inlining::CallSite& s = p.sites[g.sites.front()];
  return inlining::site_id(p.units[s.unit], inlining::base_location(s.location),
                           p.functions[s.callee].name);
}

nlohmann::json end_json(const RealMeasurement& m) {
  const double applied =
      m.requested == 0 ? 1.0 : static_cast<double>(m.applied) / static_cast<double>(m.requested);
  return {
      {"text_bytes", m.text_bytes}, {"instructions", m.instructions}, {"applied_share", applied}};
}

std::string signed_figure(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.0f", v);
  return text;
}

void run_bisect(const BisectArgs& args) {
  const inlining::Program p = read_program(args.program);
  inlining::Bisection bisection(p, read_decisions(p, args.from), read_decisions(p, args.to),
                                args.min_share);
  const inlining::Decisions to_set = bisection.ends().second;
  Measurer measurer(args, p);
  const std::size_t groups = bisection.groups().size();
  const auto planned = static_cast<std::uint64_t>(std::ceil(std::log2(groups))) + 1;
  ProgressBar bar("bisecting " + p.name + " (" + std::to_string(groups) + " call groups)");
  const auto [from_m, to_m] = measurer.pair(bisection.ends().first, bisection.ends().second);
  bisection.set_ends(measurer.value(from_m), measurer.value(to_m));
  bar.update(1, planned);
  if (!args.json)
    std::printf("%s: %zu call groups decided apart; %s %.0f from, %.0f to (%s)\n",
                printable(p.name).c_str(), groups, args.metric.c_str(), bisection.from_value(),
                bisection.to_value(),
                signed_figure(bisection.to_value() - bisection.from_value()).c_str());
  while (!bisection.done()) {
    const auto [first, second] = bisection.next();
    const auto [a, b] = measurer.pair(first, second);
    bisection.record(measurer.value(a), measurer.value(b));
    const inlining::Bisection::Step& s = bisection.steps().back();
    bar.update(bisection.steps().size() + 1, std::max(planned, bisection.steps().size() + 1));
    if (!args.json)
      std::printf("  %zu groups changed: %s; the other %zu: %s\n", s.groups,
                  signed_figure(s.first - bisection.from_value()).c_str(), s.other_groups,
                  signed_figure(s.second - bisection.from_value()).c_str());
    std::fflush(stdout);
  }
  double calls = 0;
  nlohmann::json left = nlohmann::json::array();
  for (std::size_t g : bisection.left()) {
    const inlining::CallGroup& group = bisection.groups()[g];
    calls += group.calls;
    left.push_back({{"id", group_id(p, group)},
                    {"inlined_in_to", static_cast<bool>(to_set[group.sites[0]])},
                    {"calls", group.calls},
                    {"copies", group.sites.size()}});
  }
  const double whole = bisection.to_value() - bisection.from_value();
  if (args.json) {
    nlohmann::json steps = nlohmann::json::array();
    for (const auto& s : bisection.steps())
      steps.push_back({{"groups", s.groups},
                       {"other_groups", s.other_groups},
                       {"first", s.first},
                       {"second", s.second},
                       {"took", s.took_first ? "first" : "second"}});
    const nlohmann::json report = {
        {"program", p.name},
        {"metric", args.metric},
        {"from", end_json(from_m)},
        {"to", end_json(to_m)},
        {"groups_differing", groups},
        {"steps", steps},
        {"stopped", bisection.stop_reason()},
        {"left", left},
        {"left_effect", bisection.left_effect()},
        {"share_of_whole", whole == 0 ? 0.0 : bisection.left_effect() / whole}};
    print_json(report);
    return;
  }
  const std::string these = left.size() == 1
                                ? "this call group"
                                : "these " + std::to_string(left.size()) + " call groups together";
  std::printf("stopped: %s. Changing %s moves %s by %s (%.0f %% of the whole)",
              bisection.stop_reason().c_str(), these.c_str(), args.metric.c_str(),
              signed_figure(bisection.left_effect()).c_str(),
              whole == 0 ? 0.0 : 100 * bisection.left_effect() / whole);
  if (calls > 0) std::printf(", %.1f per call", bisection.left_effect() / calls);
  std::printf(":\n");
  for (std::size_t k = 0; k < left.size() && k < 10; ++k)
    std::printf("  %s %s (%.0f calls)\n",
                left[k]["inlined_in_to"].get<bool>() ? "inline" : "call  ",
                left[k]["id"].get<std::string>().c_str(), left[k]["calls"].get<double>());
  if (left.size() > 10) std::printf("  ... and %zu more (--json lists them)\n", left.size() - 10);
}

}  // namespace

void add_inline_bisect(CLI::App& family) {
  auto args = std::make_shared<BisectArgs>();
  CLI::App* command = family.add_subcommand(
      "bisect", "Name the decisions behind what real mode measures between two decision sets");
  command->footer(
      "Examples:\n"
      "  sysgym inline bisect --program data/inline/lmdb.json --from O2 --to Oz\n"
      "  sysgym inline bisect --program data/inline/lz4.json \\\n"
      "      --from data/inline/calibration.samples.json#600 --to mine.json --json\n"
      "Measures both sets in real mode, then changes half of the call groups they decide apart "
      "(hottest first) from --from's decision to --to's, measures both halves, and follows the "
      "one that moves the measurement most in the whole change's direction, until one group is "
      "left or neither half moves it by --min-share of what the groups left do together (their "
      "effect is not a sum of theirs). Sets as measure's --decisions takes them.");
  command->add_option("--program", args->program, "A program file from extract")->required();
  command->add_option("--from", args->from, "The set to start from")->required();
  command->add_option("--to", args->to, "The set whose decisions are brought in")->required();
  command->add_option("--metric", args->metric, "instructions or size (text bytes; no run)")
      ->check(CLI::IsMember({"instructions", "size"}))
      ->capture_default_str();
  command
      ->add_option("--min-share", args->min_share,
                   "The share of the effect a half must carry to be followed")
      ->check(CLI::Range(0.01, 1.0))
      ->capture_default_str();
  add_integer_flag(*command, "--jobs", args->jobs, "Builds at a time", IntegerRange{1, 2});
  add_compile_timeout_flag(*command, args->compile_timeout,
                           "Seconds a unit may compile before the bisection is given up");
  command->add_option("--source-dir", args->source_dir,
                      "Where the units are (default: the program file's source_dir)");
  add_llvm_bin_flag(*command, args->llvm_bin);
  add_json_flag(*command, args->json, "the report");
  command->callback([args] { run_bisect(*args); });
}

}  // namespace sysgym::cli
