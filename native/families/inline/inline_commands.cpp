// sysgym inline extract: a C program's call sites with clang's features, decisions and the
// program's reference measurements, as a program file. sysgym inline measure: real mode, the
// program compiled with a set of decisions forced and measured.
#include "families/inline/inline_commands.hpp"

#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <sstream>

#include "agents/learned_policy.hpp"
#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/numbers.hpp"
#include "base/quote.hpp"
#include "catalog.hpp"
#include "env/episode.hpp"
#include "families/inline/real_mode.hpp"
#include "files.hpp"
#include "inline/calibration.hpp"
#include "inline/extraction.hpp"
#include "inline/inline_env.hpp"
#include "json_output.hpp"
#include "numeric_flags.hpp"
#include "output_flags.hpp"
#include "progress_bar.hpp"

namespace sysgym::cli {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;)
    out.push_back(w);
  return out;
}

struct ExtractArgs {
  std::string source;
  std::vector<std::string> units;
  std::string cflags;
  std::string ldflags;
  std::string run_args;
  std::string stdin_file;
  std::string name;
  std::string origin;
  std::string licence;
  std::string llvm_bin = kDefaultLlvmBin;
  std::string output;
  bool no_run = false;
  bool json = false;
};

// The units (those named, every .c file of a folder, or the one file) and the folder they are in.
std::pair<std::string, std::vector<std::string>> units_of(const std::string& source,
                                                          const std::vector<std::string>& named) {
  std::error_code ec;
  if (!named.empty()) {
    if (!fs::is_directory(source, ec))
      throw IoError("--units needs --source to be a folder; " + quote(source) + " is none");
    for (const std::string& unit : named) {
      if (!fs::is_regular_file(fs::path(source) / unit, ec))
        throw IoError("--units: no file " + quote(unit) + " in " + quote(source));
    }
    return {source, named};
  }
  if (fs::is_directory(source, ec)) {
    std::vector<std::string> units;
    for (const fs::directory_entry& e : fs::directory_iterator(source, ec)) {
      if (e.is_regular_file() && e.path().extension() == ".c")
        units.push_back(e.path().filename().string());
    }
    std::sort(units.begin(), units.end());
    if (units.empty()) throw IoError("--source " + quote(source) + ": no .c files in the folder");
    return {source, units};
  }
  if (!fs::is_regular_file(source, ec))
    throw IoError("--source " + quote(source) + ": no such file or folder");
  const fs::path p(source);
  return {p.has_parent_path() ? p.parent_path().string() : ".", {p.filename().string()}};
}

// The unit's functions and sites, from its IR with nothing inlined and opt's two printers.
void extract_unit(const Toolchain& tools, const WorkDir& work, const std::string& source_dir,
                  inlining::Program& program, const std::string& unit,
                  inlining::ExtractionCounts& counts) {
  const std::string ir = work.file("unit.ll");
  emit_never_inlined_ir(tools, source_dir, unit, program.cflags, ir);
  inlining::UnitReports r;
  r.unit = unit;
  r.ir = inlining::read_llvm_ir(read_text_file(ir), unit + " (IR)");
  inlining::InlineCostReader costs;
  opt_print(tools, "print<inline-cost>", ir, [&](std::string_view l) { costs.line(l); });
  r.costs = costs.take();
  inlining::FunctionPropertiesReader properties;
  opt_print(tools, "print<func-properties>", ir, [&](std::string_view l) { properties.line(l); });
  r.properties = properties.take();
  inlining::add_unit(program, r, counts);
}

nlohmann::json measurement_json(const inlining::Measurement& m) {
  return {{"text_bytes", m.text_bytes}, {"instructions", m.instructions}};
}

void run_extract(const ExtractArgs& args) {
  const Toolchain tools = Toolchain::find(args.llvm_bin);
  const auto found = units_of(args.source, args.units);
  const std::string& source_dir = found.first;
  const std::vector<std::string>& units = found.second;
  inlining::Program p;
  p.name = args.name.empty() ? fs::path(args.source).stem().string() : args.name;
  p.origin = args.origin;
  p.licence = args.licence;
  p.clang_version = tools.clang_version;
  p.cflags = words(args.cflags);
  p.ldflags = words(args.ldflags);
  p.run = {words(args.run_args), args.stdin_file};
  const fs::path out_dir = fs::absolute(args.output).parent_path();
  p.source_dir = fs::relative(fs::absolute(source_dir), out_dir).string();
  if (p.source_dir.empty()) p.source_dir = ".";

  const WorkDir work;
  inlining::ExtractionCounts counts;
  {
    ProgressBar bar("reading call sites");
    for (std::size_t u = 0; u < units.size(); ++u) {
      extract_unit(tools, work, source_dir, p, units[u], counts);
      bar.update(u + 1, units.size());
    }
  }
  const bool run = !args.no_run;
  std::size_t elsewhere = 0;
  const auto reference = [&](const char* label, const RealBuild& build) {
    ProgressBar bar(label);
    return measure_real(tools, p, source_dir, build, work, bar.callback());
  };
  for (const char* level : {"O2", "Oz"}) {
    const RealMeasurement m =
        reference(level, {std::nullopt, std::string("-") + level, run, false});
    p.reference[level] = {m.text_bytes, m.instructions};
    for (std::size_t u = 0; u < p.units.size(); ++u) {
      for (std::size_t i : inlining::inlined_sites(p, u, m.remarks[u], elsewhere))
        (std::string(level) == "O2" ? p.sites[i].o2 : p.sites[i].oz) = true;
    }
  }
  std::size_t never_inlined = 0;
  for (inlining::CallSite& s : p.sites) {
    if (s.o2 || s.oz) s.never.clear();  // clang's own decision is the last word
    never_inlined += s.decidable() ? 0 : 1;
  }
  const inlining::Decisions never = inlining::decision_set(p, "never");
  const RealMeasurement none = reference("never", {never, "-O2", run, false});
  p.reference["never"] = {none.text_bytes, none.instructions};
  for (std::size_t u = 0; u < p.units.size(); ++u) {
    std::map<std::string, std::int64_t> sizes;
    for (auto& [name, bytes] : function_sizes(tools, none.objects[u]))
      sizes[name] = bytes;
    for (inlining::Function& f : p.functions) {
      if (f.unit == u && sizes.count(f.name) != 0) f.text_bytes = sizes[f.name];
    }
  }
  std::size_t called = 0;
  if (run) {
    const RealMeasurement counted = reference("counting calls", {never, "-O2", true, true});
    called = inlining::attach_calls(p, counted.profile);
  }
  write_json_file(args.output, program_to_json(p));

  std::size_t o2 = 0, oz = 0;
  for (const inlining::CallSite& s : p.sites) {
    o2 += s.o2 ? 1 : 0;
    oz += s.oz ? 1 : 0;
  }
  const nlohmann::json report = {{"program", p.name},
                                 {"units", p.units.size()},
                                 {"functions", p.functions.size()},
                                 {"sites", p.sites.size()},
                                 {"sites_called", called},
                                 {"sites_never_inlined", never_inlined},
                                 {"o2_inlined", o2},
                                 {"oz_inlined", oz},
                                 {"calls_not_sites",
                                  {{"external", counts.external_calls},
                                   {"indirect", counts.indirect_calls},
                                   {"without_location", counts.unlocated_calls},
                                   {"inlined_by_o2_without_a_body_at_the_end", elsewhere}}},
                                 {"reference",
                                  {{"O2", measurement_json(p.reference["O2"])},
                                   {"Oz", measurement_json(p.reference["Oz"])},
                                   {"never", measurement_json(p.reference["never"])}}},
                                 {"output", args.output}};
  if (args.json) {
    print_json(report);
    return;
  }
  std::printf(
      "%s: %zu units, %zu functions, %zu call sites (%zu called on the input, %zu that clang "
      "never inlines); clang inlines %zu at -O2, %zu at -Oz\n",
      printable(p.name).c_str(), p.units.size(), p.functions.size(), p.sites.size(), called,
      never_inlined, o2, oz);
  std::printf("  %-6s %12s %16s\n", "", "text bytes", "instructions");
  for (const char* ref : {"O2", "Oz", "never"})
    std::printf("  %-6s %12lld %16.0f\n", ref, static_cast<long long>(p.reference[ref].text_bytes),
                p.reference[ref].instructions);
  std::printf("wrote %s\n", printable(args.output, 1024).c_str());
}

struct MeasureArgs {
  std::string program;
  std::string decisions = "O2";
  std::string policy;
  std::string policy_config;
  double compile_timeout = 0;
  std::string opt_level = "O2";
  std::string source_dir;
  std::string llvm_bin = kDefaultLlvmBin;
  bool no_run = false;
  bool json = false;
};

void run_measure(const MeasureArgs& args) {
  const inlining::Program p = read_program(args.program);
  const bool own = args.decisions == "clang" && args.policy.empty();
  inlining::Decisions d;
  if (!args.policy.empty()) {
    d = policy_decisions(args.program, args.policy,
                         args.policy_config.empty()
                             ? nlohmann::json::object()
                             : json_option(args.policy_config, "--policy-config"),
                         nlohmann::json::object());
  } else if (!own) {
    d = read_decisions(p, args.decisions);
  }
  const std::string source_dir =
      !args.source_dir.empty() ? args.source_dir : program_source_dir(args.program, p);
  const Toolchain tools = Toolchain::find(args.llvm_bin);
  const WorkDir work;
  RealBuild build{own ? std::nullopt : std::optional(d), "-" + args.opt_level, !args.no_run, false,
                  args.compile_timeout};
  ProgressBar bar("measuring " + p.name);
  const RealMeasurement m = measure_real(tools, p, source_dir, build, work, bar.callback());
  const double applied =
      m.requested == 0 ? 1.0 : static_cast<double>(m.applied) / static_cast<double>(m.requested);
  nlohmann::json report = {{"program", p.name},
                           {"decisions", args.policy.empty() ? args.decisions : args.policy},
                           {"opt_level", args.opt_level},
                           {"text_bytes", m.text_bytes},
                           {"instructions", m.instructions},
                           {"sites", p.sites.size()},
                           {"inlined_requested", m.requested},
                           {"inlined_applied", m.applied},
                           {"applied_share", applied},
                           {"never_inlined_requested", m.never_inlined},
                           {"not_applied_examples", m.not_applied}};
  if (args.json) {
    print_json(report);
    return;
  }
  std::printf("%s at -%s with %s decisions: text %lld bytes, %.0f instructions\n",
              printable(p.name).c_str(), args.opt_level.c_str(),
              (args.policy.empty() ? args.decisions : args.policy).c_str(),
              static_cast<long long>(m.text_bytes), m.instructions);
  if (!own)
    std::printf("  %zu of %zu sites asked to be inlined were (%.1f %%)\n", m.applied, m.requested,
                100 * applied);
  if (m.never_inlined > 0)
    std::printf("  %zu more asked for are calls clang never inlines (varargs, noinline...): kept\n",
                m.never_inlined);
}

}  // namespace

std::string read_text_file(const std::string& path) {
  const MappedFile file(path);
  return {reinterpret_cast<const char*>(file.bytes().data()), file.bytes().size()};
}

inlining::Program read_program(const std::string& path) {
  return inlining::program_from_json(parse_json_text(read_text_file(path), path), path);
}

void add_llvm_bin_flag(CLI::App& command, std::string& llvm_bin) {
  command.add_option("--llvm-bin", llvm_bin, "Where clang, opt and llvm-size are")
      ->capture_default_str();
}

void add_compile_timeout_flag(CLI::App& command, double& seconds, const std::string& meaning) {
  // A day at most: a larger figure is a mistake, and CLI11's NonNegativeNumber wrote out the
  // largest double in its message.
  add_number_flag(command, "--compile-timeout", seconds, meaning, {0, 86400});
}

nlohmann::json decisions_option(const std::string& decisions) {
  for (const std::string& name : inlining::decision_set_names()) {
    if (decisions == name) return decisions;
  }
  return parse_json_text(read_text_file(decisions), decisions);
}

inlining::Decisions read_decisions(const inlining::Program& program, const std::string& spec) {
  for (const std::string& name : inlining::decision_set_names()) {
    if (spec == name) return inlining::decision_set(program, name);
  }
  // FILE#N: a samples file's set N, when FILE#N is no file of its own and FILE is one (then N
  // must be a set number: FILE#-1 is a ConfigError naming N, not "no file 'FILE#-1'").
  const std::size_t hash = spec.rfind('#');
  std::error_code ec;
  if (hash != std::string::npos && !fs::exists(spec, ec) && fs::exists(spec.substr(0, hash), ec)) {
    const std::string file = spec.substr(0, hash);
    const std::uint64_t set =
        parse_integer(spec.substr(hash + 1), "--decisions: the set number after '#'",
                      IntegerRange{0, std::numeric_limits<std::uint32_t>::max()});
    return inlining::sample_decisions(program, parse_json_text(read_text_file(file), file),
                                      static_cast<std::size_t>(set), file);
  }
  return inlining::decisions_from_json(program, parse_json_text(read_text_file(spec), spec), spec);
}

inlining::Decisions policy_decisions(const std::string& program_path, const std::string& policy,
                                     const nlohmann::json& parameters,
                                     const nlohmann::json& settings) {
  const EnvSpec& spec = catalog().envs.spec("inline-v0");
  nlohmann::json config = agents::config_for_policy(policy, parameters, spec, settings);
  config["program"] = program_path;
  auto player = catalog().policies.make(policy, spec.id, parameters);
  auto env = catalog().envs.make(spec.id, config);
  run_episode(*env, *player, policy, 0, false);
  return dynamic_cast<const inlining::InlineEnv&>(*env).decisions();
}

std::string program_source_dir(const std::string& program_path, const inlining::Program& p) {
  return (fs::absolute(program_path).parent_path() / p.source_dir).lexically_normal().string();
}

void add_inline_commands(CLI::App& app) {
  CLI::App* family = app.add_subcommand(
      "inline", "The inline family's tools: extract a C program's call sites, measure decisions");
  family->require_subcommand(1);

  auto ex = std::make_shared<ExtractArgs>();
  CLI::App* extract = family->add_subcommand(
      "extract", "Read a C program's call sites, clang's decisions and reference measurements");
  extract->footer(
      "Examples:\n  sysgym inline extract --source prog.c --run-args '1000' -o prog.json\n"
      "  sysgym inline extract --source src/ --cflags '-DNDEBUG -I.' --ldflags -lm -o lua.json\n"
      "Compiles each unit with clang 14 at -O2 with nothing inlined, reads every direct call to a "
      "function with a body (opt's inline-cost and func-properties printers), compiles at -O2 "
      "and -Oz to record clang's own decisions, and counts instructions and calls per site "
      "under callgrind on the given input (--no-run: sizes only).");
  extract
      ->add_option("--source", ex->source, "A .c file, or a folder whose .c files form the program")
      ->required();
  extract
      ->add_option("--units", ex->units,
                   "The units to compile, relative to the --source folder (default: its .c files)")
      ->delimiter(',');
  extract->add_option("--cflags", ex->cflags, "Compiler flags, space-separated");
  extract->add_option("--ldflags", ex->ldflags, "Linker flags, space-separated (e.g. -lm)");
  extract->add_option("--run-args", ex->run_args,
                      "Arguments of the documented run, space-separated");
  extract->add_option("--stdin", ex->stdin_file,
                      "The run's standard input (relative to the source folder)");
  extract->add_option("--name", ex->name, "The program's name (default: the source's)");
  extract->add_option("--origin", ex->origin, "Where the sources come from");
  extract->add_option("--licence", ex->licence, "The sources' licence");
  add_llvm_bin_flag(*extract, ex->llvm_bin);
  extract->add_flag("--no-run", ex->no_run,
                    "Do not run the program (no instruction or call counts)");
  add_json_flag(*extract, ex->json, "the report");
  add_output_option(*extract, "-o,--output", ex->output, "The program file to write")->required();
  extract->callback([ex] { run_extract(*ex); });

  auto me = std::make_shared<MeasureArgs>();
  CLI::App* measure = family->add_subcommand(
      "measure",
      "Compile a program with a set of decisions forced; report text size and instructions");
  measure->footer(
      "Examples:\n  sysgym inline measure --program prog.json --decisions never\n"
      "  sysgym inline measure --program prog.json --decisions mine.json --opt-level Oz --json\n"
      "  sysgym inline measure --program data/inline/lz4.json --policy learned \\\n"
      "      --policy-config fyp.json --opt-level Oz\n"
      "--decisions: never, always, O2 or Oz (clang's decisions as the program file records them, "
      "replayed), clang (clang's own inliner, nothing forced), a decisions file, or FILE#N: set N "
      "of a "
      "samples file (calibrate's, numbered from 0). Each site is "
      "forced with clang's inline replay, every other site is never inlined, and the remarks "
      "tell how many of the requested sites clang really inlined. --policy plays one episode of "
      "inline-v0 on the program and measures its decisions.");
  measure->add_option("--program", me->program, "A program file from extract")->required();
  CLI::Option* decisions = measure
                               ->add_option("--decisions", me->decisions,
                                            "never, always, O2, Oz, clang, a file or SAMPLES#N")
                               ->capture_default_str();
  measure
      ->add_option("--policy", me->policy,
                   "Or: the decisions of an inline-v0 policy (e.g. size-threshold, learned)")
      ->excludes(decisions);
  measure->add_option("--policy-config", me->policy_config,
                      "The policy's parameters: JSON text or a file (learned: the policy file)");
  add_compile_timeout_flag(
      *measure, me->compile_timeout,
      "Seconds a unit may compile before the measurement is given up (0: no limit)");
  measure->add_option("--opt-level", me->opt_level, "O2 or Oz")
      ->check(CLI::IsMember({"O2", "Oz"}))
      ->capture_default_str();
  measure->add_option("--source-dir", me->source_dir,
                      "Where the units are (default: the program file's source_dir)");
  add_llvm_bin_flag(*measure, me->llvm_bin);
  measure->add_flag("--no-run", me->no_run, "Text size only");
  add_json_flag(*measure, me->json, "the report");
  measure->callback([me] { run_measure(*me); });
  add_inline_calibrate(*family);
  add_inline_anneal(*family);
  add_inline_assign(*family);
  add_inline_bench(*family);
  add_inline_estimate(*family);
  add_inline_bisect(*family);
}

}  // namespace sysgym::cli
