// Runs a program under valgrind's lackey and hands its memory trace to a sink line by line,
// interleaved with the lines the program itself prints (its stdout, or a file it writes), which
// carry phase markers. The trace arrives on a pipe and is never stored.
#pragma once

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

namespace sysgym::cli {

enum class MarkerSource {
  kNone,    // the program's stdout is left alone
  kStdout,  // the program's stdout is read through a pseudo-terminal and echoed to stderr
  kFile,    // a file the program writes (made a named pipe for the run, then restored)
};

struct LackeyProcessOptions {
  std::vector<std::string> command;  // the program and its arguments
  std::string valgrind = "valgrind";
  MarkerSource markers = MarkerSource::kNone;
  std::string marker_file;  // with MarkerSource::kFile
};

class LackeySink {
 public:
  virtual ~LackeySink() = default;
  // One line of lackey output (without its newline).
  virtual void trace_line(std::string_view line) = 0;
  // One line the program printed. Every trace line lackey wrote before it has been delivered
  // (give or take the pipe's last megabyte). Returns false to stop the program there.
  virtual bool output_line(std::string_view line) = 0;
  // Called a few times a second while the program runs.
  virtual void tick() {}
  // Whether the sink has all it wants (a cap reached): the program is stopped there.
  virtual bool done() const { return false; }
};

struct LackeyOutcome {
  int wait_status = 0;       // as from waitpid
  bool stopped = false;      // output_line or done() asked to stop; the program was terminated
  bool interrupted = false;  // `interrupted` became true; the program was terminated
  // Processes the program started that outlived it ("1234 (sleep)"), when it ended by itself.
  std::vector<std::string> left_running;
};

// Returns when the traced process exits: children it left running in the background are not
// traced (valgrind's --trace-children=no), keep running, and no longer hold the capture open.
// They are listed in left_running: this process adopts them (a child subreaper) to find them.
// Throws IoError when valgrind cannot be started or the marker file cannot be set up; whatever
// the sink throws, after terminating the program.
LackeyOutcome run_lackey(const LackeyProcessOptions& options, LackeySink& sink,
                         const std::atomic<bool>& interrupted);

}  // namespace sysgym::cli
