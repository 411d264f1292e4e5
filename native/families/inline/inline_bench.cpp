// sysgym inline bench: the goal table. Per program, in real mode: clang's own build,
// clang's decisions replayed, the baselines, the annealer's best set (the practical optimum, found
// in model mode) and each learned policy, compiled and measured; every row relative to clang's
// decisions replayed (the objective's baseline: -Oz decisions at -Oz for size, -O2 decisions at
// -O2 for instructions).
#include <cstdio>
#include <filesystem>
#include <memory>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/rng.hpp"
#include "catalog.hpp"
#include "families/inline/inline_commands.hpp"
#include "families/inline/real_mode.hpp"
#include "inline/anneal.hpp"
#include "inline/inline_env.hpp"
#include "json_output.hpp"
#include "numeric_flags.hpp"
#include "progress_bar.hpp"
#include "subprocess.hpp"

namespace sysgym::cli {
namespace {

struct InlineBenchArgs {
  std::vector<std::string> programs;
  std::vector<std::string> policies;  // policy files
  std::string objective = "size";
  std::int64_t anneal_steps = 3000;
  double compile_timeout = 300;
  std::string llvm_bin = kDefaultLlvmBin;
  bool no_run = false;
  bool json = false;
};

// The goal for instructions: fewer than clang's -O2 decisions at no more than +5 % text.
double size_limit(const InlineBenchArgs& args) {
  return args.objective == "instructions" ? 1.05 : 0.0;
}

struct InlineBenchRow {
  std::string name;
  std::optional<inlining::Decisions> decisions;  // none: clang's own inliner
};

// The annealer's best set for the objective, from clang's decisions, in model mode.
inlining::Decisions annealed(const std::string& program, const InlineBenchArgs& args) {
  auto env = catalog().envs.make(
      "inline-v0",
      {{"program", program}, {"objective", args.objective}, {"size_limit", size_limit(args)}});
  auto& e = dynamic_cast<inlining::InlineEnv&>(*env);
  e.reset(0);
  const inlining::Decisions start = inlining::decision_set(e.program(), e.baseline());
  return inlining::anneal(e.program(), [&](const inlining::Decisions& d) { return e.cost(d); },
                          start, {static_cast<std::size_t>(args.anneal_steps), 0.04, 0.001, 0})
      .best;
}

std::vector<InlineBenchRow> rows_of(const std::string& program, const inlining::Program& p,
                                    const InlineBenchArgs& args) {
  const std::string level = args.objective == "size" ? "Oz" : "O2";
  const nlohmann::json settings = {{"objective", args.objective}};
  std::vector<InlineBenchRow> rows = {
      {"clang -" + level + " (own)", std::nullopt},
      {"clang-" + level + " decisions", inlining::decision_set(p, level)},
      {"never", inlining::decision_set(p, "never")},
      {"size-threshold",
       policy_decisions(program, "size-threshold", nlohmann::json::object(), settings)},
      {"anneal", annealed(program, args)}};
  for (const std::string& file : args.policies) {
    const nlohmann::json parameters = json_option(file, "--policy-config");
    rows.push_back({std::filesystem::path(file).stem().string(),
                    policy_decisions(program, "learned", parameters, settings)});
  }
  return rows;
}

nlohmann::json bench_program(const Toolchain& tools, const std::string& program,
                             const InlineBenchArgs& args) {
  const inlining::Program p = read_program(program);
  const std::string source_dir = program_source_dir(program, p);
  const std::vector<InlineBenchRow> rows = rows_of(program, p, args);
  const std::string level = args.objective == "size" ? "-Oz" : "-O2";
  nlohmann::json out = nlohmann::json::array();
  ProgressBar bar("measuring " + p.name);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::size_t inlined = 0;
    for (bool b : rows[i].decisions.value_or(inlining::Decisions{}))
      inlined += b ? 1 : 0;
    nlohmann::json row = {{"policy", rows[i].name},
                          {"inlined", rows[i].decisions ? nlohmann::json(inlined) : nullptr}};
    try {
      const WorkDir work;
      const RealMeasurement m =
          measure_real(tools, p, source_dir,
                       {rows[i].decisions, level, !args.no_run, false, args.compile_timeout}, work);
      row["text_bytes"] = m.text_bytes;
      row["instructions"] = m.instructions;
      row["applied"] = rows[i].decisions ? nlohmann::json(m.applied) : nullptr;
    } catch (const ToolTimeout&) {
      // A set that inlines so much that a unit compiles for minutes is a result, not a failure.
      row["timed_out"] = true;
    }
    out.push_back(std::move(row));
    bar.update(i + 1, rows.size());
  }
  const nlohmann::json& base = out[1];  // clang's decisions replayed
  if (base.contains("timed_out"))
    throw IoError(p.name + ": clang's own decisions compiled longer than --compile-timeout");
  for (nlohmann::json& r : out) {
    if (r.contains("timed_out")) continue;
    r["text_vs_baseline"] =
        static_cast<double>(r["text_bytes"].get<std::int64_t>()) / base["text_bytes"].get<double>();
    if (!args.no_run)
      r["instructions_vs_baseline"] =
          r["instructions"].get<double>() / base["instructions"].get<double>();
  }
  return {{"program", p.name}, {"sites", p.sites.size()}, {"opt_level", level}, {"rows", out}};
}

void print_table(const nlohmann::json& t, bool run) {
  std::printf("%s (%zu sites) at %s, relative to clang's decisions replayed:\n",
              t["program"].get<std::string>().c_str(), t["sites"].get<std::size_t>(),
              t["opt_level"].get<std::string>().c_str());
  std::printf("  %-22s %11s %8s %14s %8s %8s\n", "policy", "text bytes", "vs", "instructions", "vs",
              "inlined");
  for (const nlohmann::json& r : t["rows"]) {
    if (r.contains("timed_out")) {
      std::printf("  %-22s a unit compiled longer than the timeout\n",
                  r["policy"].get<std::string>().c_str());
      continue;
    }
    std::printf(
        "  %-22s %11lld %8.4f %14.0f %8s %8s\n", r["policy"].get<std::string>().c_str(),
        r["text_bytes"].get<long long>(), r["text_vs_baseline"].get<double>(),
        r["instructions"].get<double>(),
        run ? std::to_string(r["instructions_vs_baseline"].get<double>()).substr(0, 6).c_str()
            : "-",
        r["inlined"].is_null() ? "-" : r["inlined"].dump().c_str());
  }
}

void run_bench(const InlineBenchArgs& args) {
  const Toolchain tools = Toolchain::find(args.llvm_bin);
  nlohmann::json tables = nlohmann::json::array();
  for (const std::string& program : args.programs) {
    tables.push_back(bench_program(tools, program, args));
    if (!args.json) print_table(tables.back(), !args.no_run);
  }
  if (args.json) print_json(tables);
}

}  // namespace

void add_inline_bench(CLI::App& family) {
  auto args = std::make_shared<InlineBenchArgs>();
  CLI::App* command = family.add_subcommand(
      "bench", "The goal table: every baseline, the annealer and learned policies in real mode");
  command->footer(
      "Examples:\n"
      "  sysgym inline bench --program data/inline/lz4.json --program data/inline/lmdb.json \\\n"
      "      --policy-config fyp.json --policy-config dqn.json\n"
      "  sysgym inline bench --program data/inline/lmdb.json --objective instructions\n"
      "objective size: each row compiled at -Oz, against clang's -Oz decisions replayed; "
      "instructions: at -O2 against clang's -O2 decisions. The anneal row searches in model mode "
      "from clang's decisions (--anneal-steps; for instructions with text over +5 % penalised) "
      "and is then measured like the others.");
  command->add_option("--program", args->programs, "Program files (repeat)")->required();
  command->add_option("--policy-config", args->policies, "Learned policy files (repeat)");
  command->add_option("--objective", args->objective, "size or instructions")
      ->check(CLI::IsMember({"size", "instructions"}))
      ->capture_default_str();
  add_integer_flag(*command, "--anneal-steps", args->anneal_steps, "Annealing steps",
                   {1, 100000000});
  add_compile_timeout_flag(
      *command, args->compile_timeout,
      "Seconds a unit may compile before its row is marked timed out (0: no limit)");
  add_llvm_bin_flag(*command, args->llvm_bin);
  command->add_flag("--no-run", args->no_run, "Text size only (no callgrind runs)");
  add_json_flag(*command, args->json, "the tables");
  command->callback([args] { run_bench(*args); });
}

}  // namespace sysgym::cli
