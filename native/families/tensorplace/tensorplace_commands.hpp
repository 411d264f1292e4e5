// tensorplace's own tools in the native shell: `sysgym tensorplace zoo|graph`. The generic
// commands reach the family through the env registry.
#pragma once

#include <CLI/CLI.hpp>

namespace sysgym::cli {

void add_tensorplace_commands(CLI::App& app);

}  // namespace sysgym::cli
