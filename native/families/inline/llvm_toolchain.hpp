// clang 14, opt, llvm-size and valgrind as the inline family drives them: compiling a unit with
// every inlining decision forced (clang's inline replay with every other site never inlined),
// printing opt's analyses, linking, measuring text size and counting instructions.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "inline/callgrind.hpp"
#include "inline/llvm_reports.hpp"
#include "inline/program.hpp"

namespace sysgym::cli {

struct Toolchain {
  std::string clang;
  std::string opt;
  std::string llvm_size;
  std::string llvm_nm;
  std::string valgrind = "valgrind";
  std::string clang_version;  // "14.0.6", from `clang --version`

  // The tools in `llvm_bin` (Debian's clang-14 and llvm-14 put them in /usr/lib/llvm-14/bin).
  // Throws IoError naming the missing tool and the Debian packages that hold it.
  static Toolchain find(const std::string& llvm_bin);
  // Throws ConfigError when `program` was extracted by another major version of clang (its
  // call-site keys and clang's decisions are that version's).
  void check_extracted_here(const inlining::Program& program) const;
};

// Where Debian's clang-14 and llvm-14 put their tools; every command's --llvm-bin default.
inline constexpr const char* kDefaultLlvmBin = "/usr/lib/llvm-14/bin";

// A temporary folder, removed with everything in it when the object goes.
class WorkDir {
 public:
  WorkDir();
  ~WorkDir();
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// How a unit is compiled: "-O2" or "-Oz" and whose decisions (clang's own inliner, or replay of
// the sites in `replay_file` with every other site never inlined).
struct CompileSpec {
  std::string opt_level = "-O2";
  std::string replay_file;     // "" = clang's own inliner
  bool no_tail_calls = false;  // so that callgrind sees every call as a call
  // A decision set can make a unit explode (every site of LMDB inlined ran for 20 minutes and
  // 2 GB): the compile is stopped after this long (0: never).
  double timeout_seconds = 0;
};

// Compiles `unit` (relative to `source_dir`) into `object` with -gline-tables-only (the call-site
// keys come from its line tables; the text is the same as without) and returns the inliner's
// remarks.
std::vector<inlining::InlinedSite> compile_object(
    const Toolchain& tools, const std::string& source_dir, const std::string& unit,
    const std::vector<std::string>& cflags, const CompileSpec& spec, const std::string& object);

// The unit's textual IR at -O2 with no call site inlined.
void emit_never_inlined_ir(const Toolchain& tools, const std::string& source_dir,
                           const std::string& unit, const std::vector<std::string>& cflags,
                           const std::string& ir);

// Runs `opt -passes=PASSES -disable-output IR` and hands each line it prints to `on_line`.
void opt_print(const Toolchain& tools, const std::string& passes, const std::string& ir,
               const std::function<void(std::string_view)>& on_line);

void link_program(const Toolchain& tools, const std::vector<std::string>& objects,
                  const std::vector<std::string>& ldflags, const std::string& executable);

std::int64_t text_bytes(const Toolchain& tools, const std::vector<std::string>& objects);

// The machine code bytes of each function defined in `object`, by symbol name.
std::vector<std::pair<std::string, std::int64_t>> function_sizes(const Toolchain& tools,
                                                                 const std::string& object);

// Runs the program under callgrind on its documented input (in `source_dir`) and reads the
// profile. Throws IoError when the program fails.
inlining::CallgrindProfile count_instructions(const Toolchain& tools, const std::string& executable,
                                              const std::string& source_dir,
                                              const inlining::RunSpec& run,
                                              const std::string& profile_file);

// A replay file that inlines exactly the sites of `unit` that `inline_site` marks and clang may
// inline (CallSite::decidable).
void write_replay_file(const inlining::Program& program, std::size_t unit,
                       const std::vector<bool>& inline_site, const std::string& path);

}  // namespace sysgym::cli
