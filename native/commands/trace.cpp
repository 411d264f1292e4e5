// sysgym trace -- COMMAND: capture a modeled DDR/HBM trace pair of a real program by running it
// under valgrind's lackey and streaming lackey's output through a pipe (never stored: a 0.4 s
// program prints gigabytes). Files are written only at the end, atomically, so an interrupted
// or failed capture leaves nothing behind.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "base/units.hpp"
#include "capture/capture.hpp"
#include "commands/commands.hpp"
#include "files.hpp"
#include "traces/csv_writer.hpp"
#include "traces/trace_file.hpp"

extern char** environ;

namespace sysgym::cli {
namespace {

std::atomic<bool> interrupted{false};
void on_interrupt(int) {
  interrupted = true;
}

// Ctrl-C stops the capture: without SA_RESTART a blocked read() returns at once.
void handle_interrupt(bool on) {
  struct sigaction action {};
  action.sa_handler = on ? on_interrupt : SIG_DFL;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
}

struct TraceArgs {
  std::vector<std::string> command;
  std::string output;
  std::string llc_size = "1MiB";
  std::uint32_t llc_ways = 16;
  std::uint32_t line = 64;
  std::uint64_t period = 64;
  std::uint64_t phase_instructions = 0;
  std::string timing = "knl";
  std::vector<std::string> mixed;
  std::string format = "bin";
  std::string valgrind = "valgrind";
  bool json = false;
};

// Runs valgrind lackey on the command with its trace on a pipe (fd 3 in the child); the
// program's own stdin/stdout/stderr are untouched.
pid_t spawn_lackey(const TraceArgs& args, int& read_fd) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw IoError(std::string("cannot create a pipe: ") + std::strerror(errno));
  std::vector<std::string> argv_strings = {args.valgrind, "--tool=lackey", "--trace-mem=yes",
                                           "--log-fd=3"};
  argv_strings.insert(argv_strings.end(), args.command.begin(), args.command.end());
  std::vector<char*> argv;
  for (std::string& s : argv_strings)
    argv.push_back(s.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 3);
  pid_t pid = 0;
  const int error =
      posix_spawnp(&pid, args.valgrind.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (error != 0) {
    ::close(fds[0]);
    throw IoError("cannot run '" + args.valgrind + "': " + std::strerror(error) +
                  " (install valgrind)");
  }
  read_fd = fds[0];
  return pid;
}

void report_progress(const capture::CaptureStats& s, double seconds) {
  if (!stderr_is_terminal()) return;
  std::fprintf(
      stderr, "\rtracing: %.1f M instructions, %.2f M misses, %llu samples, %.1f M lines/s   ",
      static_cast<double>(s.instructions) / 1e6, static_cast<double>(s.misses) / 1e6,
      static_cast<unsigned long long>(s.samples), static_cast<double>(s.lines) / 1e6 / seconds);
}

// Streams lackey's output into the builder; returns the child's wait status.
int stream(const TraceArgs& args, capture::CaptureBuilder& builder) {
  int fd = -1;
  const pid_t pid = spawn_lackey(args, fd);
  std::vector<char> buffer(1 << 20);
  std::string pending;
  const auto start = std::chrono::steady_clock::now();
  auto last = start;
  bool failed = false;
  std::exception_ptr error;
  for (;;) {
    if (interrupted) {
      ::kill(pid, SIGTERM);
      break;
    }
    const ssize_t got = ::read(fd, buffer.data(), buffer.size());
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    std::size_t begin = 0;
    const std::string_view chunk(buffer.data(), static_cast<std::size_t>(got));
    try {
      for (std::size_t nl = chunk.find('\n'); nl != std::string_view::npos;
           nl = chunk.find('\n', begin)) {
        if (pending.empty()) {
          builder.add_line(chunk.substr(begin, nl - begin));
        } else {
          pending.append(chunk.substr(begin, nl - begin));
          builder.add_line(pending);
          pending.clear();
        }
        begin = nl + 1;
      }
    } catch (...) {
      error = std::current_exception();
      failed = true;
      ::kill(pid, SIGTERM);
      break;
    }
    pending.append(chunk.substr(begin));
    const auto now = std::chrono::steady_clock::now();
    if (now - last > std::chrono::milliseconds(250) && now - start > std::chrono::seconds(1)) {
      report_progress(builder.stats(), std::chrono::duration<double>(now - start).count());
      last = now;
    }
  }
  ::close(fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (stderr_is_terminal() && std::chrono::steady_clock::now() - start > std::chrono::seconds(1)) {
    std::fputs("\n", stderr);
  }
  if (failed) std::rethrow_exception(error);
  if (interrupted) throw IoError("interrupted: nothing was written");
  return status;
}

void write_trace(const memtier::Trace& trace, const std::string& path, const std::string& format) {
  if (format == "csv") {
    write_file_atomically(path, memtier::write_csv_trace(trace));
  } else {
    write_file_atomically(path, memtier::encode_trace(trace));
  }
}

void trace_command(const TraceArgs& args) {
  capture::CaptureOptions options;
  options.cache = {parse_byte_size(args.llc_size), args.llc_ways, args.line};
  options.sample_period = args.period;
  options.phase_instructions = args.phase_instructions;
  options.timing = args.timing;
  for (const std::string& text : args.mixed)
    options.mixed.emplace_back(memtier::parse_address_ranges(text));
  capture::CaptureBuilder builder(options);
  handle_interrupt(true);
  int status = 0;
  try {
    status = stream(args, builder);
  } catch (...) {
    handle_interrupt(false);
    throw;
  }
  handle_interrupt(false);
  const std::string program = args.command.front();
  if (WIFSIGNALED(status)) {
    throw IoError("the traced program '" + program + "' was killed by signal " +
                  std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) +
                  "); nothing was written");
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    throw IoError("the traced program '" + program + "' exited with status " +
                  std::to_string(WEXITSTATUS(status)) +
                  " (or valgrind could not run it); nothing was written");
  }
  const capture::CaptureResult r = builder.finish(args.output);
  const std::string ext = args.format == "csv" ? ".csv" : ".bin";
  write_trace(r.pair.ddr, args.output + ".ddr" + ext, args.format);
  write_trace(r.pair.hbm, args.output + ".hbm" + ext, args.format);
  for (std::size_t i = 0; i < r.mixed.size(); ++i) {
    write_trace(r.mixed[i], args.output + ".mixed-" + std::to_string(i) + ext, args.format);
  }
  nlohmann::json out = {{"program", args.command},
                        {"instructions", r.stats.instructions},
                        {"data_accesses", r.stats.data_accesses},
                        {"llc_misses", r.stats.misses},
                        {"samples", r.stats.samples},
                        {"timing_model", args.timing},
                        {"cpu_cycles_per_ms", capture::timing_model(args.timing).cycles_per_ms()},
                        {"ddr_ms", r.ddr_ms},
                        {"hbm_ms", r.hbm_ms},
                        {"mixed_ms", r.mixed_ms},
                        {"files", {args.output + ".ddr" + ext, args.output + ".hbm" + ext}}};
  if (args.json) {
    std::printf("%s\n", out.dump(2).c_str());
    return;
  }
  std::printf(
      "traced %s: %.2f M instructions, %.2f M data accesses, %llu LLC misses, %llu samples\n",
      program.c_str(), static_cast<double>(r.stats.instructions) / 1e6,
      static_cast<double>(r.stats.data_accesses) / 1e6,
      static_cast<unsigned long long>(r.stats.misses),
      static_cast<unsigned long long>(r.stats.samples));
  std::printf("modeled (%s): DDR run %.3f ms, HBM run %.3f ms\n", args.timing.c_str(), r.ddr_ms,
              r.hbm_ms);
  for (std::size_t i = 0; i < r.mixed_ms.size(); ++i) {
    std::printf("  mixed %zu (%s): %.3f ms\n", i, args.mixed[i].c_str(), r.mixed_ms[i]);
  }
  std::printf("wrote %s.ddr%s and %s.hbm%s (estimate them with --cpu-cycles-per-ms %.0f)\n",
              args.output.c_str(), ext.c_str(), args.output.c_str(), ext.c_str(),
              capture::timing_model(args.timing).cycles_per_ms());
}

}  // namespace

void add_trace_command(CLI::App& app) {
  auto args = std::make_shared<TraceArgs>();
  CLI::App* command = app.add_subcommand(
      "trace", "Capture a modeled DDR/HBM trace pair of a program run under valgrind lackey");
  command->footer(
      "Examples:\n"
      "  sysgym trace -o /tmp/gzip -- gzip -k -f /tmp/big.txt\n"
      "  sysgym trace --period 16 --llc-size 256KiB --timing cxl --mixed 0x55550000:0x55560000 -o "
      "run -- ./app\n"
      "Data accesses go through an LLC model; every --period-th miss becomes a sample; the timing "
      "model\n"
      "(knl: DDR4 vs MCDRAM; cxl: CXL memory vs local DRAM) gives both runs' clocks. About 1000x "
      "slower than\n"
      "the program itself. Ctrl-C stops the capture and writes nothing.");
  command->add_option("command", args->command, "The program and its arguments (after --)")
      ->required();
  command->add_option("-o,--output", args->output, "Output prefix: PREFIX.ddr.bin, PREFIX.hbm.bin")
      ->required();
  command->add_option("--llc-size", args->llc_size, "Last-level cache size")->capture_default_str();
  command->add_option("--llc-ways", args->llc_ways, "Last-level cache associativity")
      ->capture_default_str();
  command->add_option("--line", args->line, "Cache line size in bytes")->capture_default_str();
  command->add_option("--period", args->period, "Keep every N-th LLC miss as a sample")
      ->capture_default_str();
  command
      ->add_option("--phase-instructions", args->phase_instructions,
                   "Start a new phase every N instructions (0: one phase)")
      ->capture_default_str();
  command->add_option("--timing", args->timing, "Timing model")
      ->capture_default_str()
      ->check(CLI::IsMember(capture::timing_model_names()));
  command->add_option("--mixed", args->mixed,
                      "Also model a run with these LO:HI ranges in HBM; repeatable");
  command->add_option("--format", args->format, "Output format")
      ->capture_default_str()
      ->check(CLI::IsMember({"bin", "csv"}));
  command->add_option("--valgrind", args->valgrind, "The valgrind executable")
      ->capture_default_str();
  command->add_flag("--json", args->json, "Print a JSON summary");
  command->callback([args] { trace_command(*args); });
}

}  // namespace sysgym::cli
