// The command line as one function: the root app with every command, parsed and run, errors
// printed as the tool prints them. main() runs it once; `sysgym profile` runs it again, inside
// the profiler, on the command it profiles.
#pragma once

#include <CLI/CLI.hpp>
#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace sysgym::cli {

std::unique_ptr<CLI::App> make_app();

// Runs `args` (the arguments after the program name) and returns the exit status: 0 success, 1 a
// sysgym error (printed as "sysgym: KIND: message"), 2 a usage error, 3 an internal error.
int run_command_line(std::vector<std::string> args);

// Prints `error` as the tool prints errors ("sysgym: PREFIXKIND: message") and returns its exit
// status (1 a sysgym error or out of memory, 3 an internal error).
int print_error(const std::exception_ptr& error, const std::string& prefix = "");

// Thrown by a command that ends with the exit status of a command it ran (profile).
struct ExitStatus {
  int code;
};

void add_profile_command(CLI::App& app);

}  // namespace sysgym::cli
