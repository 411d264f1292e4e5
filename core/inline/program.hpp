// A real C program as the inline family sees it: its translation units, its functions and every
// call site the inliner can decide, with features from clang 14's own analyses, clang's decisions
// at -O2 and -Oz, dynamic call counts from a run on a documented input, and the program's
// measured text size and instruction count under reference decision sets.
//
// File format (JSON): {"kind": "sysgym-inline-program", "schema_version": 2, "name", "origin",
// "licence", "clang": "14.0.6" (the extracting clang; optional), "source_dir", "units": ["a.c",
// ...], "cflags": [...], "ldflags": [...], "run": {"args": [...], "stdin": "file" or ""},
// "functions": [{"name", "unit", "local", "instructions", "blocks", "calls_in", "properties":
// {"BasicBlockCount": n, ...}}], "sites": [{"id", "unit", "caller", "callee", "location", "line",
// "copies", "o2", "oz", "calls", "features": {"Cost": n, "Threshold": n, ...} (counts of 0 left
// out), "never": "varargs" (only on a site clang never inlines)}], "reference": {"never":
// {"text_bytes", "instructions"}, "O2": {...}, "Oz": {...}}}. Function and unit fields are indices;
// a site's id is "UNIT|LOCATION|CALLEE", the key clang's replay reads.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "inline/llvm_reports.hpp"

namespace sysgym::inlining {

// 2: sites clang never inlines are marked ("never"); a version-1 file cannot say which they are.
inline constexpr int kProgramSchemaVersion = 2;
inline constexpr const char* kProgramKind = "sysgym-inline-program";

struct Function {
  std::string name;
  std::size_t unit = 0;
  bool local = false;             // static: deleted when no call and no other use is left
  std::int64_t instructions = 0;  // IR instructions with no call site inlined
  std::int64_t blocks = 0;
  std::int64_t calls_in = 0;    // direct calls to it in the IR (copies included)
  std::int64_t text_bytes = 0;  // its machine code at -O2 with no site inlined
  NamedCounts properties;       // opt's print<func-properties>
};

struct CallSite {
  std::string id;
  std::size_t unit = 0;
  std::size_t caller = 0;  // into Program::functions
  std::size_t callee = 0;
  std::string location;     // "CALLER:LINE_OFFSET:COLUMN"
  std::int64_t line = 0;    // the call's source line
  std::int64_t copies = 1;  // IR calls under this key (a loop unrolled before the inliner ran)
  bool o2 = false;          // clang -O2 inlined it
  bool oz = false;          // clang -Oz inlined it
  double calls = 0;         // dynamic calls on the documented input
  NamedCounts features;     // opt's print<inline-cost> for the first copy
  // Why clang never inlines it ("" when it may: a decision): its callee takes varargs, is
  // noinline... (IrFunction::never_inlined), or is built for other CPU features. No decision set
  // inlines it: forcing it would overrule the source or miscompile (va_start).
  std::string never;
  bool decidable() const { return never.empty(); }
};

struct Measurement {
  std::int64_t text_bytes = 0;
  double instructions = 0;  // dynamic, on the documented input (0: not measured)
};

struct RunSpec {
  std::vector<std::string> args;
  std::string stdin_file;  // relative to the program's source folder; "" for none
};

struct Program {
  std::string name;
  std::string source_dir = ".";  // where the units are, relative to the program file
  std::string origin;            // where the sources come from (package, version, URL-free)
  std::string licence;
  // The clang that extracted it ("14.0.6"; "" unknown): call-site keys and clang's decisions are
  // that version's, so real mode refuses another major version.
  std::string clang_version;
  std::vector<std::string> units;  // source files, relative to the source folder
  std::vector<std::string> cflags;
  std::vector<std::string> ldflags;  // for linking the program to run it
  RunSpec run;
  std::vector<Function> functions;
  std::vector<CallSite> sites;
  std::map<std::string, Measurement> reference;  // "never", "O2", "Oz", ...
};

// A site's id from its parts.
std::string site_id(const std::string& unit, const std::string& location,
                    const std::string& callee);
// The key of a call in the body it was written in: a site copied by always_inline bodies
// ("f:7:22 @ g:75:23") is decided where it was written ("f:7:22"), before f is copied; clang's
// remarks and its replay name it that way, and every copy follows that one decision.
std::string base_location(const std::string& location);

nlohmann::json program_to_json(const Program& program);
// Throws ConfigError naming `what` and the field at fault (wrong kind or version, an index out of
// range, a site id twice).
Program program_from_json(const nlohmann::json& j, const std::string& what);

}  // namespace sysgym::inlining
