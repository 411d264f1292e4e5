#include "families/inline/llvm_toolchain.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "subprocess.hpp"

namespace sysgym::cli {
namespace {

// Line tables give each call its replay key; DWARF 4, because valgrind 3.19 gives up on the DWARF 5
// that clang 14 writes by default. Neither changes the code.
const std::vector<std::string> kDebugFlags = {"-gline-tables-only", "-gdwarf-4"};

std::vector<std::string> replay_flags(const std::string& replay_file) {
  return {"-mllvm", "-cgscc-inline-replay=" + replay_file,
          "-mllvm", "-cgscc-inline-replay-fallback=NeverInline",
          "-mllvm", "-cgscc-inline-replay-scope=Module"};
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot read " + quote(path));
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// "Debian clang version 14.0.6" or "clang version 15.0.7 (https://...)" -> "14.0.6".
std::string read_clang_version(const std::string& clang) {
  std::string first;
  ProcessSpec p({clang, "--version"});
  p.on_stdout_line = [&](std::string_view line) {
    if (first.empty()) first = line;
  };
  run_checked(p, "clang --version");
  const std::string marker = "clang version ";
  const std::size_t at = first.find(marker);
  if (at == std::string::npos)
    throw IoError("cannot read the version of " + quote(clang) + " from " + quote(first));
  const std::string rest = first.substr(at + marker.size());
  return rest.substr(0, rest.find_first_of(" -"));
}

std::string major_of(const std::string& version) {
  return version.substr(0, version.find('.'));
}

}  // namespace

void Toolchain::check_extracted_here(const inlining::Program& program) const {
  if (program.clang_version.empty() || major_of(program.clang_version) == major_of(clang_version))
    return;
  throw ConfigError(quote(program.name) + " was extracted by clang " + program.clang_version +
                    ", and the clang here (" + clang + ") is " + clang_version +
                    ": call-site keys and clang's own decisions differ between versions. "
                    "Extract it again with this clang (sysgym inline extract), or give "
                    "--llvm-bin the folder of a clang " +
                    major_of(program.clang_version));
}

Toolchain Toolchain::find(const std::string& llvm_bin) {
  Toolchain t{llvm_bin + "/clang",   llvm_bin + "/opt", llvm_bin + "/llvm-size",
              llvm_bin + "/llvm-nm", "valgrind",        ""};
  for (const std::string* tool : {&t.clang, &t.opt, &t.llvm_size, &t.llvm_nm}) {
    if (::access(tool->c_str(), X_OK) != 0)
      throw IoError("the inline family needs clang 14 and LLVM 14's tools: " + quote(*tool) +
                    " is missing (Debian: apt-get install clang-14 llvm-14; or --llvm-bin DIR)");
  }
  t.clang_version = read_clang_version(t.clang);
  return t;
}

WorkDir::WorkDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/sysgym-inline-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr)
    throw IoError("cannot make a temporary folder " + quote(pattern));
  path_ = pattern;
}

WorkDir::~WorkDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::vector<inlining::InlinedSite> compile_object(
    const Toolchain& tools, const std::string& source_dir, const std::string& unit,
    const std::vector<std::string>& cflags, const CompileSpec& spec, const std::string& object) {
  std::vector<std::string> argv = {tools.clang, spec.opt_level, "-Rpass=inline"};
  argv.insert(argv.end(), kDebugFlags.begin(), kDebugFlags.end());
  argv.insert(argv.end(), cflags.begin(), cflags.end());
  if (!spec.replay_file.empty()) {
    const auto replay = replay_flags(spec.replay_file);
    argv.insert(argv.end(), replay.begin(), replay.end());
  }
  if (spec.no_tail_calls) argv.emplace_back("-fno-optimize-sibling-calls");
  // -x c: a unit is C whatever its name ends in (clang takes a notes.txt for a linker input,
  // compiles nothing and succeeds).
  argv.insert(argv.end(), {"-c", "-x", "c", unit, "-o", object});
  std::string remarks;
  ProcessSpec p{argv, source_dir};
  p.timeout_seconds = spec.timeout_seconds;
  p.on_stderr_line = [&](std::string_view line) {
    if (line.find("remark: ") != std::string_view::npos) (remarks += line) += '\n';
  };
  run_checked(p, "compiling " + quote(unit));
  return inlining::read_inline_remarks(remarks);
}

void emit_never_inlined_ir(const Toolchain& tools, const std::string& source_dir,
                           const std::string& unit, const std::vector<std::string>& cflags,
                           const std::string& ir) {
  // An empty replay file with the NeverInline fallback: no site is inlined.
  const std::string replay_never = ir + ".never.txt";
  if (!std::ofstream(replay_never)) throw IoError("cannot write " + quote(replay_never));
  std::vector<std::string> argv = {tools.clang, "-O2"};
  argv.insert(argv.end(), kDebugFlags.begin(), kDebugFlags.end());
  argv.insert(argv.end(), cflags.begin(), cflags.end());
  const auto replay = replay_flags(replay_never);
  argv.insert(argv.end(), replay.begin(), replay.end());
  argv.insert(argv.end(), {"-emit-llvm", "-S", "-x", "c", unit, "-o", ir});
  run_checked(ProcessSpec{argv, source_dir}, "compiling " + quote(unit) + " to LLVM IR");
}

void opt_print(const Toolchain& tools, const std::string& passes, const std::string& ir,
               const std::function<void(std::string_view)>& on_line) {
  ProcessSpec p{{tools.opt, "-passes=" + passes, "-disable-output", ir}};
  p.on_stderr_line = on_line;
  run_checked(p, "opt " + passes);
}

void link_program(const Toolchain& tools, const std::vector<std::string>& objects,
                  const std::vector<std::string>& ldflags, const std::string& executable) {
  std::vector<std::string> argv = {tools.clang, "-o", executable};
  argv.insert(argv.end(), objects.begin(), objects.end());
  argv.insert(argv.end(), ldflags.begin(), ldflags.end());
  run_checked(ProcessSpec{argv}, "linking " + quote(executable));
}

std::int64_t text_bytes(const Toolchain& tools, const std::vector<std::string>& objects) {
  std::vector<std::string> argv = {tools.llvm_size};
  argv.insert(argv.end(), objects.begin(), objects.end());
  std::string out;
  ProcessSpec p{argv};
  p.on_stdout_line = [&](std::string_view line) { (out += line) += '\n'; };
  run_checked(p, "llvm-size");
  return inlining::read_text_bytes(out, "llvm-size");
}

std::vector<std::pair<std::string, std::int64_t>> function_sizes(const Toolchain& tools,
                                                                 const std::string& object) {
  std::string out;
  ProcessSpec p({tools.llvm_nm, "--print-size", "--defined-only", object});
  p.on_stdout_line = [&](std::string_view line) { (out += line) += '\n'; };
  run_checked(p, "llvm-nm");
  return inlining::read_function_sizes(out);
}

inlining::CallgrindProfile count_instructions(const Toolchain& tools, const std::string& executable,
                                              const std::string& source_dir,
                                              const inlining::RunSpec& run,
                                              const std::string& profile_file) {
  std::vector<std::string> argv = {tools.valgrind,
                                   "--tool=callgrind",
                                   "--callgrind-out-file=" + profile_file,
                                   "--compress-strings=no",
                                   "--compress-pos=no",
                                   "--vgdb=no",
                                   executable};
  argv.insert(argv.end(), run.args.begin(), run.args.end());
  ProcessSpec p{argv, source_dir};
  if (!run.stdin_file.empty()) p.stdin_file = source_dir + "/" + run.stdin_file;
  p.on_stdout_line = [](std::string_view) {};
  run_checked(p, "running the program under callgrind");
  return inlining::read_callgrind(read_text(profile_file), profile_file);
}

void write_replay_file(const inlining::Program& program, std::size_t unit,
                       const std::vector<bool>& inline_site, const std::string& path) {
  std::ofstream out(path);
  std::set<std::string> lines;  // copies of one call in always_inline bodies share a line
  for (std::size_t i = 0; i < program.sites.size(); ++i) {
    const inlining::CallSite& s = program.sites[i];
    // Replay would force a site clang never inlines, and a varargs body inlined miscompiles.
    if (s.unit != unit || !inline_site[i] || !s.decidable()) continue;
    const std::string at = inlining::base_location(s.location);
    // The caller is the function the call was written in: the key's first name.
    const std::string line = "remark: '" + program.functions[s.callee].name + "' inlined into '" +
                             at.substr(0, at.find(':')) + "' at callsite " + at + ";\n";
    if (lines.insert(line).second) out << line;
  }
  if (!out.flush()) throw IoError("cannot write " + quote(path));
}

}  // namespace sysgym::cli
