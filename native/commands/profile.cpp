// sysgym profile [--json] [--chrome-trace FILE] [--partial] [--runs N] [--no-baseline] -- CMD...:
// runs any sysgym command inside the profiler (core/profiling) and reports where its time went,
// per operation and per category, corrected for the profiler's own cost as RL-Scope does, next to
// the same command's wall time measured without the profiler (in this process, alternating).
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>

#include "app.hpp"
#include "base/error.hpp"
#include "base/quote.hpp"
#include "files.hpp"
#include "json_output.hpp"
#include "output_flags.hpp"
#include "profiling/profiler.hpp"
#include "stream_lines.hpp"

namespace sysgym::cli {
namespace {

struct ProfileArgs {
  std::vector<std::string> command;
  std::string chrome_trace;
  std::int64_t max_events = 200000;
  int runs = 1;
  bool no_baseline = false;
  bool partial = false;
  bool json = false;
};

// While it lives, what the process writes to `fd` goes to `to` instead (stdio flushed at both
// ends, so nothing buffered lands on the wrong side).
class Redirect {
 public:
  Redirect(int fd, int to) : fd_(fd), saved_(::dup(fd)) {
    if (saved_.get() < 0) throw IoError("profile: cannot set the output aside");
    flush();
    ::dup2(to, fd_);
  }
  ~Redirect() {
    flush();
    ::dup2(saved_.get(), fd_);
  }
  Redirect(const Redirect&) = delete;
  Redirect& operator=(const Redirect&) = delete;

 private:
  static void flush() {
    std::fflush(stdout);
    std::fflush(stderr);
  }
  int fd_;
  Fd saved_;
};

// The command's wall time without the profiler, in this process (the span a profiled run times,
// with the same data already loaded once the first run has loaded it), its output discarded; -1
// when it fails.
double unprofiled_ms(const std::vector<std::string>& command) {
  const Fd null(::open("/dev/null", O_WRONLY | O_CLOEXEC));
  if (null.get() < 0) throw IoError("profile: cannot open /dev/null");
  const Redirect out(STDOUT_FILENO, null.get());
  const Redirect err(STDERR_FILENO, null.get());
  const auto start = std::chrono::steady_clock::now();
  const int code = run_command_line(command);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return code == 0 ? ms : -1;  // the profiled run shows the command's own error
}

// The command, its stdout sent to stderr while it runs when the report takes stdout (--json).
int run_profiled(const ProfileArgs& args, profiling::Profiler& profiler) {
  const profiling::Activation on(profiler);
  int code = 0;
  if (args.json) {
    const Redirect out(STDOUT_FILENO, STDERR_FILENO);
    code = run_command_line(args.command);
  } else {
    code = run_command_line(args.command);
  }
  std::fflush(stdout);
  profiler.finish();
  return code;
}

void run_profile(const ProfileArgs& args) {
  if (args.command.empty())
    throw ConfigError(
        "profile: name the command to profile after --, e.g. "
        "sysgym profile -- train memtier-v0 --steps 20000 -o p.json");
  const profiling::Overhead overhead = profiling::calibrate();
  // Unprofiled and profiled runs alternate in this process, an unprofiled one first; each side
  // counts its fastest run, as this machine's timings vary by a third from run to run. A first
  // run loads data that later runs of the process find cached: --runs 2 or more compares warm
  // runs on both sides.
  double unprofiled = -1;
  std::unique_ptr<profiling::Profiler> fastest;
  int code = 0;
  for (int i = 0; i < args.runs && code == 0; ++i) {
    if (!args.no_baseline) {
      const double ms = unprofiled_ms(args.command);
      if (ms > 0 && (unprofiled < 0 || ms < unprofiled)) unprofiled = ms;
    }
    auto run = std::make_unique<profiling::Profiler>(
        args.chrome_trace.empty() ? 0 : static_cast<std::size_t>(args.max_events));
    code = run_profiled(args, *run);
    if (!fastest || code != 0 || run->wall_ns() < fastest->wall_ns()) fastest = std::move(run);
  }
  const profiling::Profiler& profiler = *fastest;
  if (code != 0 && !args.partial) throw ExitStatus{code};
  nlohmann::json r = profiling::report(profiler, overhead);
  r["runs"] = args.runs;
  r["command"] = args.command;
  r["partial"] = code != 0;
  if (code == 0 && unprofiled > 0) {
    r["unprofiled_ms"] = unprofiled;
    r["corrected_error"] = r["corrected_wall_ms"].get<double>() / unprofiled - 1;
    r["uncorrected_overhead"] = r["wall_ms"].get<double>() / unprofiled - 1;
  }
  if (!args.chrome_trace.empty()) {
    nlohmann::json trace = profiling::chrome_trace(profiler);
    trace["otherData"]["partial"] = code != 0;
    write_json_file(args.chrome_trace, trace);
  }
  if (args.json) {
    print_json(r);
  } else {
    if (code != 0) std::printf("partial profile: the command failed (exit %d)\n", code);
    std::fputs(profiling::report_text(r).c_str(), stdout);
  }
  if (code != 0) throw ExitStatus{code};
}

}  // namespace

void add_profile_command(CLI::App& app) {
  auto args = std::make_shared<ProfileArgs>();
  CLI::App* command =
      app.add_subcommand("profile", "Run a sysgym command and report where its time went");
  command->footer(
      "Examples:\n"
      "  sysgym profile -- train memtier-v0 --agent dqn --steps 20000 -o dqn.json\n"
      "  sysgym profile --json --chrome-trace trace.json -- run inline-v0 program=lz4\n"
      "Times every operation the core names (env step, policy inference, learner update, "
      "replay sampling, data loading, ...): self and inclusive time, count, mean and share of "
      "the wall time, corrected for the profiler's own per-scope cost (measured first), and "
      "the same command's wall time without the profiler (--runs pairs in this process, "
      "each side's fastest; the first run loads data that later ones find cached; "
      "--no-baseline skips it). A failing command's error and exit "
      "status pass through; --partial still "
      "writes what was profiled, marked partial. The trace opens in Perfetto or "
      "chrome://tracing.");
  add_output_option(*command, "--chrome-trace", args->chrome_trace,
                    "Write the timeline as Chrome trace-event JSON");
  command->add_option("--max-events", args->max_events, "Scopes kept for the timeline (the first)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{50000000}))
      ->capture_default_str();
  command
      ->add_option("--runs", args->runs,
                   "Profiled and unprofiled runs, alternating; each side's fastest counts")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  command->add_flag("--no-baseline", args->no_baseline,
                    "No unprofiled run (the command runs once per --runs, profiled)");
  command->add_flag("--partial", args->partial,
                    "Report what was profiled even when the command fails (marked partial)");
  add_json_flag(*command, args->json, "the report (the command's own output goes to stderr)");
  command->add_option("command", args->command, "The sysgym command and its arguments, after --")
      ->expected(-1);
  command->callback([args] { run_profile(*args); });
}

}  // namespace sysgym::cli
