#include "families/inline/real_mode.hpp"

#include <filesystem>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "inline/extraction.hpp"

namespace sysgym::cli {
namespace {

// Shipped programs come without their sources (they are fetched, not committed): say how to get
// them instead of letting clang fail on a folder that is not there.
void check_sources(const inlining::Program& program, const std::string& source_dir) {
  std::error_code error;  // a folder we may not read counts as missing, not as a crash
  for (const std::string& unit : program.units) {
    const std::filesystem::path file = std::filesystem::path(source_dir) / unit;
    if (std::filesystem::is_regular_file(file, error)) continue;
    throw IoError("the sources of " + quote(program.name) + " are not here: no " +
                  quote(file.string()) +
                  "; fetch a shipped program's with 'node data/inline/regenerate.mjs "
                  "--sources-only " +
                  program.name + "', or name their folder with --source-dir");
  }
}

}  // namespace

RealMeasurement measure_real(const Toolchain& tools, const inlining::Program& program,
                             const std::string& source_dir, const RealBuild& build,
                             const WorkDir& work, const ProgressFn& progress) {
  tools.check_extracted_here(program);
  check_sources(program, source_dir);
  RealMeasurement m;
  std::vector<bool> applied(program.sites.size(), false);
  std::vector<std::string>& objects = m.objects;
  const std::size_t steps = program.units.size() + (build.run ? 1 : 0);
  for (std::size_t u = 0; u < program.units.size(); ++u) {
    CompileSpec spec{build.opt_level, "", build.no_tail_calls, build.compile_timeout_seconds};
    if (build.decisions) {
      spec.replay_file = work.file("replay-" + std::to_string(u) + ".txt");
      write_replay_file(program, u, *build.decisions, spec.replay_file);
    }
    objects.push_back(work.file("unit-" + std::to_string(u) + ".o"));
    m.remarks.push_back(
        compile_object(tools, source_dir, program.units[u], program.cflags, spec, objects.back()));
    std::size_t elsewhere = 0;
    for (std::size_t i : inlining::inlined_sites(program, u, m.remarks.back(), elsewhere))
      applied[i] = true;
    if (progress) progress(u + 1, steps);
  }
  m.text_bytes = text_bytes(tools, objects);
  if (build.decisions) {
    for (std::size_t i = 0; i < program.sites.size(); ++i) {
      if (!(*build.decisions)[i]) continue;
      if (!program.sites[i].decidable()) {
        ++m.never_inlined;
        continue;
      }
      ++m.requested;
      if (applied[i]) {
        ++m.applied;
      } else if (m.not_applied.size() < 10) {
        m.not_applied.push_back(program.sites[i].id);
      }
    }
  }
  if (build.run) {
    const std::string executable = work.file("program");
    link_program(tools, objects, program.ldflags, executable);
    m.profile =
        count_instructions(tools, executable, source_dir, program.run, work.file("callgrind.out"));
    m.instructions = m.profile.instructions;
    if (progress) progress(steps, steps);
  }
  return m;
}

}  // namespace sysgym::cli
