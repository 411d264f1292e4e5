// Running a tool (a compiler, valgrind, the program under study) and reading what it prints,
// line by line as it prints it, so that a tool that writes hundreds of megabytes (opt's
// inline-cost printer) is read through a pipe and never stored.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/error.hpp"

namespace sysgym::cli {

struct ProcessSpec {
  explicit ProcessSpec(std::vector<std::string> command, std::string dir = "")
      : argv(std::move(command)), cwd(std::move(dir)) {}
  std::vector<std::string> argv;  // argv[0] is looked up on PATH
  std::string cwd;                // "" runs in this process's directory
  std::string stdin_file;         // "" reads /dev/null
  std::string stdout_file;        // "" sends stdout to on_stdout_line
  double timeout_seconds = 0;     // > 0: the tool is killed when it runs longer
  std::function<void(std::string_view)> on_stdout_line;
  std::function<void(std::string_view)> on_stderr_line;
};

struct ProcessOutcome {
  int exit_code = 0;       // the exit status, or 128 + the signal that ended it
  int signal = 0;          // the signal that ended it (0: it exited)
  bool timed_out = false;  // killed after timeout_seconds
  // The last lines of stderr (up to 20), for an error message when the tool failed.
  std::string stderr_tail;
};

// Throws IoError naming argv[0] when it cannot be started (not installed) and the files when they
// cannot be opened. Lines reach the callbacks without their newline.
ProcessOutcome run_process(const ProcessSpec& spec);

// A tool stopped after ProcessSpec::timeout_seconds: an IoError that callers for whom a timeout is
// a result (a decision set that makes a unit explode) catch by its type.
class ToolTimeout : public IoError {
 public:
  using IoError::IoError;
};

// A tool (or the program under study) ended by a signal it raised itself, such as SIGSEGV: an
// IoError that callers measuring many builds (a decision set whose program overflows its stack)
// catch by its type.
class ToolCrashed : public IoError {
 public:
  using IoError::IoError;
};

// Runs and throws IoError "WHAT failed (exit N): <stderr tail>" unless the tool exits with 0
// (ToolTimeout "WHAT took longer than N s" when it timed out, ToolCrashed "WHAT crashed (signal
// N, NAME)" when a signal ended it).
void run_checked(const ProcessSpec& spec, const std::string& what);

// The tool's argv joined for a message (each argument quoted where it holds a space).
std::string command_line(const std::vector<std::string>& argv);

}  // namespace sysgym::cli
