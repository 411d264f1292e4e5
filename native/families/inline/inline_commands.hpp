// The inline family's own tools in the native shell: `sysgym inline extract` and `sysgym inline
// measure` (real mode: clang, opt, llvm-size and callgrind on this machine).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "inline/decisions.hpp"
#include "inline/program.hpp"

namespace sysgym::cli {

void add_inline_commands(CLI::App& app);
void add_inline_calibrate(CLI::App& family);
void add_inline_anneal(CLI::App& family);
void add_inline_assign(CLI::App& family);
void add_inline_bench(CLI::App& family);
void add_inline_estimate(CLI::App& family);
void add_inline_bisect(CLI::App& family);

// Shared by the subcommands.
void add_llvm_bin_flag(CLI::App& command, std::string& llvm_bin);
// --compile-timeout SECONDS (0: no limit); `meaning` says what a timeout does to the command.
void add_compile_timeout_flag(CLI::App& command, double& seconds, const std::string& meaning);
std::string read_text_file(const std::string& path);
inlining::Program read_program(const std::string& path);
// --decisions of measure and estimate: a decision set's name as it is, else the file's JSON.
nlohmann::json decisions_option(const std::string& decisions);
// A decisions argument of measure and bisect: a set's name (never, always, O2, Oz), a decisions
// file, or FILE#N, set N of a samples file.
inlining::Decisions read_decisions(const inlining::Program& program, const std::string& spec);
// The decisions of one inline-v0 episode of `policy` on the program file (settings: other
// inline-v0 keys, e.g. objective; a learned policy's own env keys come first).
inlining::Decisions policy_decisions(const std::string& program_path, const std::string& policy,
                                     const nlohmann::json& parameters,
                                     const nlohmann::json& settings);
// Where a program file's units are: its source_dir, relative to the file.
std::string program_source_dir(const std::string& program_path, const inlining::Program& program);

}  // namespace sysgym::cli
