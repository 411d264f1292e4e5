// memtier's own tools in the native shell: `sysgym memtier estimate|preprocess|inspect|synth|trace`
// (traces in, estimates and prepared pairs out). The generic commands (run, compare, train ...)
// reach memtier through the env registry; only these know its file formats.
#pragma once

#include <CLI/CLI.hpp>

namespace sysgym::cli {

// The `memtier` command and its tools, plus the old top-level names as aliases for one release.
void add_memtier_commands(CLI::App& app);

void add_estimate_command(CLI::App& app);
void add_preprocess_command(CLI::App& app);
void add_inspect_command(CLI::App& app);
void add_synth_command(CLI::App& app);
void add_trace_command(CLI::App& app);
void add_traces_command(CLI::App& app);

}  // namespace sysgym::cli
