// The inline family's own tools in the native shell: `sysgym inline extract` and `sysgym inline
// measure` (real mode: clang, opt, llvm-size and callgrind on this machine).
#pragma once

#include <CLI/CLI.hpp>

namespace sysgym::cli {

void add_inline_commands(CLI::App& app);

}  // namespace sysgym::cli
