// Each generic subcommand registers its flags and its action on the root app; a family's tools
// register under the family (native/families/FAMILY).
#pragma once

#include <CLI/CLI.hpp>

namespace sysgym::cli {

void add_run_command(CLI::App& app);
void add_compare_command(CLI::App& app);
void add_describe_command(CLI::App& app);
void add_list_command(CLI::App& app);
void add_check_command(CLI::App& app);
void add_train_command(CLI::App& app);
void add_eval_command(CLI::App& app);

}  // namespace sysgym::cli
