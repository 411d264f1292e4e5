// Flags that name a file the command writes, checked when the command line is read: a missing
// or read-only folder, or a directory in the file's place, is an IoError before any work, not
// after hours of it.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace sysgym::cli {

// add_option(names, path, help) on `command`, its value checked by check_output_path (a
// prefix such as synth's -o PREFIX is checked as its files' folder). The error names the flag.
CLI::Option* add_output_option(CLI::App& command, const std::string& names, std::string& path,
                               const std::string& help);

}  // namespace sysgym::cli
