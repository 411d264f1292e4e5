// looptune's own tools in the native shell: `sysgym looptune tune`. The generic commands reach
// the family through the env registry.
#pragma once

#include <CLI/CLI.hpp>

namespace sysgym::cli {

void add_looptune_commands(CLI::App& app);
// Subcommands of `sysgym looptune`, each in its own file.
void add_looptune_calibrate(CLI::App& family);
void add_looptune_bench(CLI::App& family);
void add_looptune_imitate(CLI::App& family);

}  // namespace sysgym::cli
