// Real mode: a program compiled with a set of decisions forced per call site, its text size read
// by llvm-size and its instructions counted by callgrind on the documented input.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/progress.hpp"
#include "families/inline/llvm_toolchain.hpp"
#include "inline/decisions.hpp"
#include "inline/program.hpp"

namespace sysgym::cli {

struct RealBuild {
  // The decisions to force; none = clang's own inliner at `opt_level`.
  std::optional<inlining::Decisions> decisions;
  std::string opt_level = "-O2";
  bool run = true;                     // count instructions (else text size only)
  bool no_tail_calls = false;          // for the per-site call counts
  double compile_timeout_seconds = 0;  // per unit; 0: none
};

struct RealMeasurement {
  std::int64_t text_bytes = 0;
  double instructions = 0;               // 0 when not run
  std::size_t requested = 0;             // sites the decisions inline that clang may inline
  std::size_t applied = 0;               // of those, the ones clang's remarks say it inlined
  std::size_t never_inlined = 0;         // sites asked for that clang never inlines: kept calls
  std::vector<std::string> not_applied;  // the first few ids, for the report
  inlining::CallgrindProfile profile;    // when run
  std::vector<std::vector<inlining::InlinedSite>> remarks;  // per unit: what clang inlined
  std::vector<std::string> objects;  // per unit, in the work folder until the next build
};

// Compiles every unit (each in turn, reporting progress), links, sizes and runs the program.
RealMeasurement measure_real(const Toolchain& tools, const inlining::Program& program,
                             const std::string& source_dir, const RealBuild& build,
                             const WorkDir& work, const ProgressFn& progress = nullptr);

}  // namespace sysgym::cli
