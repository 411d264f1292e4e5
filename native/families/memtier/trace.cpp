// sysgym memtier trace -- COMMAND: capture a modeled DDR/HBM trace pair of a real program by
// running it under valgrind's lackey and streaming lackey's output through a pipe (never stored: a
// 0.4 s program prints gigabytes). Files are written only at the end, atomically, so an interrupted
// or failed capture leaves nothing behind.
#include <signal.h>
#include <sys/wait.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/units.hpp"
#include "families/memtier/memtier_commands.hpp"
#include "files.hpp"
#include "json_output.hpp"
#include "lackey_process.hpp"
#include "marker_matcher.hpp"
#include "memtier/capture/capture.hpp"
#include "memtier/prepared_pair.hpp"
#include "memtier/reports.hpp"
#include "numeric_flags.hpp"
#include "output_flags.hpp"
#include "trace_output.hpp"

namespace sysgym::cli {
namespace {

std::atomic<bool> interrupted{false};
void on_interrupt(int) {
  interrupted = true;
}

// Ctrl-C stops the capture: without SA_RESTART a blocked poll() returns at once. Afterwards the
// previous handler (removing temporary files, see files.hpp) is back.
void handle_interrupt(bool on) {
  static struct sigaction previous {};
  if (!on) {
    ::sigaction(SIGINT, &previous, nullptr);
    return;
  }
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, &previous);
}

struct TraceArgs {
  std::vector<std::string> command;
  std::string output;
  std::string llc_size = "1MiB";
  std::uint32_t llc_ways = 16;
  std::uint32_t line = 64;
  std::uint64_t period = 64;
  std::uint64_t phase_instructions = 0;
  std::uint64_t max_instructions = 0;  // 0: no cap
  std::uint64_t max_samples = 0;       // 0: no cap
  std::string phase_marker, keep_phases, stop_marker, marker_file;
  std::string timing = "knl";
  std::vector<std::string> mixed;
  std::string format = "bin";
  std::string valgrind = "valgrind";
  bool json = false;
};

// Feeds lackey's lines to the capture and turns the program's output lines into phases.
class CaptureSink final : public LackeySink {
 public:
  CaptureSink(const TraceArgs& args, capture::CaptureBuilder& builder)
      : builder_(builder),
        markers_({args.phase_marker, args.keep_phases, args.stop_marker}),
        max_instructions_(args.max_instructions),
        max_samples_(args.max_samples) {
    if (!args.keep_phases.empty() && args.phase_marker.empty())
      throw ConfigError("--keep-phases needs --phase-marker to name the phases");
    if (args.phase_instructions != 0 && !args.phase_marker.empty())
      throw ConfigError("phases come either every N instructions or from markers, not both");
    if (!args.keep_phases.empty()) builder_.start_phase("start", markers_.keeps("start"));
  }
  void trace_line(std::string_view line) override {
    if (capped_) return;  // the rest of the batch that reached the cap
    builder_.add_line(line);
    const capture::CaptureStats& s = builder_.stats();
    capped_ = (max_instructions_ != 0 && s.instructions >= max_instructions_) ||
              (max_samples_ != 0 && s.samples >= max_samples_);
  }
  bool done() const override { return capped_; }
  bool capped() const { return capped_; }
  bool output_line(std::string_view line) override {
    MarkerMatch m = markers_.match(line);
    if (m.stop) return false;
    if (m.phase) builder_.start_phase(std::move(*m.phase), m.keep);
    return true;
  }
  void tick() override {
    if (!stderr_is_terminal()) return;
    const capture::CaptureStats& s = builder_.stats();
    const double seconds = std::chrono::duration<double>(clock::now() - start_).count();
    std::fprintf(stderr,
                 "\rtracing: %.1f M instructions (%.1f M skipped), %.2f M misses, %llu samples, "
                 "%.2f M instructions/s, %s   ",
                 static_cast<double>(s.instructions) / 1e6,
                 static_cast<double>(s.skipped_instructions) / 1e6,
                 static_cast<double>(s.misses) / 1e6, static_cast<unsigned long long>(s.samples),
                 static_cast<double>(s.instructions + s.skipped_instructions) / 1e6 / seconds,
                 time_to_go(s, seconds).c_str());
    ticked_ = true;
  }
  bool ticked() const { return ticked_; }

 private:
  // From the share of a cap reached so far; a run without caps has no known end.
  std::string time_to_go(const capture::CaptureStats& s, double seconds) const {
    double done = 0;
    if (max_instructions_ != 0)
      done = std::max(done, static_cast<double>(s.instructions) / max_instructions_);
    if (max_samples_ != 0) done = std::max(done, static_cast<double>(s.samples) / max_samples_);
    if (done <= 0) return format_seconds(seconds) + " so far";
    return format_seconds(seconds) + " so far, at most ~" +
           format_seconds(seconds * (1 - std::min(done, 1.0)) / done) + " to go";
  }
  static std::string format_seconds(double s) {
    char text[32];
    if (s < 120) {
      std::snprintf(text, sizeof text, "%.0f s", s);
    } else {
      std::snprintf(text, sizeof text, "%.1f min", s / 60);
    }
    return text;
  }
  using clock = std::chrono::steady_clock;
  capture::CaptureBuilder& builder_;
  MarkerMatcher markers_;
  clock::time_point start_ = clock::now();
  bool ticked_ = false;
  std::uint64_t max_instructions_, max_samples_;
  bool capped_ = false;
};

struct Streamed {
  LackeyOutcome outcome;
  bool capped = false;  // stopped at --max-instructions or --max-samples
};

Streamed stream(const TraceArgs& args, capture::CaptureBuilder& builder) {
  LackeyProcessOptions options;
  options.command = args.command;
  options.valgrind = args.valgrind;
  const bool markers = !args.phase_marker.empty() || !args.stop_marker.empty();
  if (!args.marker_file.empty() && !markers)
    throw ConfigError("--marker-file needs --phase-marker or --stop-marker");
  if (markers) {
    options.markers = args.marker_file.empty() ? MarkerSource::kStdout : MarkerSource::kFile;
    options.marker_file = args.marker_file;
  }
  CaptureSink sink(args, builder);
  handle_interrupt(true);
  LackeyOutcome outcome;
  try {
    outcome = run_lackey(options, sink, interrupted);
  } catch (...) {
    handle_interrupt(false);
    if (sink.ticked()) std::fputs("\n", stderr);
    throw;
  }
  handle_interrupt(false);
  if (sink.ticked()) std::fputs("\n", stderr);
  if (outcome.interrupted) throw IoError("interrupted: nothing was written");
  return {outcome, sink.capped()};
}

// A program stopped at --stop-marker ended as asked; any other exit but 0 is a failure.
void check_exit(const std::string& program, const LackeyOutcome& outcome) {
  // (A program stopped at a cap was stopped by us too.)
  const int status = outcome.wait_status;
  if (outcome.stopped) return;
  if (WIFSIGNALED(status)) {
    throw IoError("the traced program " + quote(program) + " was killed by signal " +
                  std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) +
                  "); nothing was written");
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    throw IoError("the traced program " + quote(program) + " exited with status " +
                  std::to_string(WEXITSTATUS(status)) +
                  " (or valgrind could not run it); nothing was written");
  }
}

// Each modeled mixed run next to the estimator's prediction for the same placement: the
// estimator's error, as MemAI measured it against real mixed runs (estimate_report, with the
// modeled run as the measured one).
nlohmann::json mixed_report(const TraceArgs& args, const capture::CaptureResult& r,
                            const std::vector<memtier::HbmRanges>& placements) {
  nlohmann::json list = nlohmann::json::array();
  if (r.mixed.empty()) return list;
  memtier::WindowOptions w;
  w.mode = memtier::WindowMode::kAligned;
  w.cpu_cycles_per_ms = capture::timing_model(args.timing).cycles_per_ms();
  const memtier::PreparedPair pair = memtier::prepare_pair(r.pair, w);
  for (std::size_t i = 0; i < r.mixed.size(); ++i) {
    const nlohmann::json e = memtier::estimate_report(pair, placements[i], 1.0, &r.mixed[i]);
    list.push_back({{"ranges", args.mixed[i]},
                    {"modeled_ms", e["measured_ms"]},
                    {"estimated_ms", e["estimated_ms"]},
                    {"relative_error", e["error"]}});
  }
  return list;
}

nlohmann::json report(const TraceArgs& args, const capture::CaptureResult& r,
                      const std::vector<memtier::HbmRanges>& placements, const Streamed& streamed,
                      const std::vector<std::string>& warnings, const std::string& ext) {
  nlohmann::json phases = nlohmann::json::array();
  for (const capture::CapturePhase& p : r.phases) {
    nlohmann::json phase = {{"name", p.name},
                            {"kept", p.kept},
                            {"instructions", p.instructions},
                            {"llc_misses", p.misses},
                            {"samples", p.samples}};
    if (p.kept) phase["id"] = p.id;
    phases.push_back(std::move(phase));
  }
  return {{"program", args.command},
          {"instructions", r.stats.instructions},
          {"skipped_instructions", r.stats.skipped_instructions},
          {"data_accesses", r.stats.data_accesses},
          {"llc_misses", r.stats.misses},
          {"samples", r.stats.samples},
          {"stopped_at_marker", streamed.outcome.stopped && !streamed.capped},
          {"stopped_at_cap", streamed.capped},
          {"warnings", warnings},
          {"phases", std::move(phases)},
          {"timing_model", args.timing},
          {"cpu_cycles_per_ms", capture::timing_model(args.timing).cycles_per_ms()},
          {"ddr_ms", r.ddr_ms},
          {"hbm_ms", r.hbm_ms},
          {"mixed", mixed_report(args, r, placements)},
          {"files", {args.output + ".ddr" + ext, args.output + ".hbm" + ext}}};
}

void print_report(const TraceArgs& args, const capture::CaptureResult& r,
                  const nlohmann::json& out) {
  std::printf(
      "traced %s: %.2f M instructions, %.2f M data accesses, %llu LLC misses, %llu samples\n",
      args.command.front().c_str(), static_cast<double>(r.stats.instructions) / 1e6,
      static_cast<double>(r.stats.data_accesses) / 1e6,
      static_cast<unsigned long long>(r.stats.misses),
      static_cast<unsigned long long>(r.stats.samples));
  if (r.phases.size() > 1) {
    for (const capture::CapturePhase& p : r.phases) {
      std::printf("  phase %-24s %s %8.2f M instructions %8llu samples\n",
                  printable(p.name).c_str(), p.kept ? "kept   " : "skipped",
                  static_cast<double>(p.instructions) / 1e6,
                  static_cast<unsigned long long>(p.samples));
    }
  }
  std::printf("modeled (%s): DDR run %.3f ms, HBM run %.3f ms\n", args.timing.c_str(), r.ddr_ms,
              r.hbm_ms);
  for (const nlohmann::json& m : out["mixed"]) {
    std::printf("  mixed %s: modeled %.3f ms, estimated %.3f ms (error %.2f %%)\n",
                m["ranges"].get<std::string>().c_str(), m["modeled_ms"].get<double>(),
                m["estimated_ms"].get<double>(), 100 * m["relative_error"].get<double>());
  }
  std::printf("wrote %s and %s (estimate them with --cpu-cycles-per-ms %.0f)\n",
              printable(out["files"][0].get<std::string>(), 1024).c_str(),
              printable(out["files"][1].get<std::string>(), 1024).c_str(),
              capture::timing_model(args.timing).cycles_per_ms());
}

// What makes a capture a poor training trace: too few samples to tell hot pages from cold, or
// so little difference between the DDR and HBM runs that no placement can win much.
std::vector<std::string> capture_warnings(const TraceArgs& args, const capture::CaptureResult& r) {
  constexpr std::uint64_t kFewSamples = 2000;
  constexpr double kSmallGap = 0.02;
  std::vector<std::string> warnings;
  if (r.stats.samples < kFewSamples) {
    warnings.push_back("only " + std::to_string(r.stats.samples) +
                       " samples: too few to tell hot pages from cold; lower --period (now " +
                       std::to_string(args.period) + ") or trace more of the program");
  }
  const double gap = r.ddr_ms > 0 ? (r.ddr_ms - r.hbm_ms) / r.ddr_ms : 0.0;
  if (gap < kSmallGap) {
    char text[64];
    std::snprintf(text, sizeof text, "%.1f %%", 100 * gap);
    warnings.push_back("the DDR and HBM runs differ by only " + std::string(text) +
                       ": the program is compute-bound or fits the LLC model (--llc-size " +
                       args.llc_size + "), so no placement can win much");
  }
  return warnings;
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
  const Streamed streamed = stream(args, builder);
  check_exit(args.command.front(), streamed.outcome);
  const capture::CaptureResult r = builder.finish(args.output);
  std::vector<std::string> warnings = capture_warnings(args, r);
  if (const auto& left = streamed.outcome.left_running; !left.empty()) {
    std::string pids;
    for (const std::string& process : left)
      pids += (pids.empty() ? "" : ", ") + process;
    warnings.push_back(
        "the traced program has exited, leaving " + std::to_string(left.size()) +
        (left.size() == 1 ? " process" : " processes") +
        " it started running in the background, untraced: " + pids +
        ". sysgym does not wait for them, but while they keep the standard output and error "
        "they were given, a caller reading those (a pipe, $(...)) waits until they end");
  }
  for (const std::string& w : warnings)
    std::fprintf(stderr, "sysgym: warning: %s\n", w.c_str());
  const std::string ext = args.format == "csv" ? ".csv" : ".bin";
  std::vector<TraceOutput> outputs = {{args.output + ".ddr" + ext, &r.pair.ddr},
                                      {args.output + ".hbm" + ext, &r.pair.hbm}};
  for (std::size_t i = 0; i < r.mixed.size(); ++i)
    outputs.push_back({args.output + ".mixed-" + std::to_string(i) + ext, &r.mixed[i]});
  write_trace_set(outputs, args.format);
  const nlohmann::json out = report(args, r, options.mixed, streamed, warnings, ext);
  if (args.json) {
    print_json(out);
  } else {
    print_report(args, r, out);
  }
}

}  // namespace

void add_trace_command(CLI::App& app) {
  auto args = std::make_shared<TraceArgs>();
  CLI::App* command = app.add_subcommand(
      "trace", "Capture a modeled DDR/HBM trace pair of a program run under valgrind lackey");
  command->footer(
      "Examples:\n"
      "  sysgym memtier trace -o /tmp/xz -- xz -k -f /tmp/big.tar\n"
      "  sysgym memtier trace --period 16 --llc-size 256KiB --timing cxl --mixed "
      "0x55550000:0x55560000 "
      "-o run -- ./app\n"
      "  sysgym memtier trace --phase-marker 'Setting up (Verlet) run' -o melt -- lmp -in in.melt\n"
      "  sysgym memtier trace --marker-file hpccoutf.txt --phase-marker 'Begin of (\\w+) section' "
      "\\\n"
      "      --keep-phases '^SingleSTREAM$' --stop-marker 'Begin of MPIFFT' -o stream -- hpcc\n"
      "Data accesses go through an LLC model; every --period-th miss becomes a sample; the timing\n"
      "model (knl: DDR4 vs MCDRAM; cxl: CXL memory vs local DRAM) gives both runs' clocks. About\n"
      "300x slower than the program itself: --max-instructions or --max-samples caps the work\n"
      "(and gives the progress line a time to go). Ctrl-C stops the capture and writes nothing.");
  command->add_option("command", args->command, "The program and its arguments (after --)")
      ->required();
  add_output_option(*command, "-o,--output", args->output,
                    "Output prefix: PREFIX.ddr.bin, PREFIX.hbm.bin")
      ->required();
  command->add_option("--llc-size", args->llc_size, "Last-level cache size")->capture_default_str();
  add_integer_flag(*command, "--llc-ways", args->llc_ways, "Last-level cache associativity",
                   {1, 1024});
  add_integer_flag(*command, "--line", args->line, "Cache line size in bytes", {1, 4096});
  add_integer_flag(*command, "--period", args->period, "Keep every N-th LLC miss as a sample",
                   {1, std::uint64_t{1} << 32});
  add_integer_flag(*command, "--max-instructions", args->max_instructions,
                   "Stop the program after this many traced instructions (0: run to the end)", {});
  add_integer_flag(*command, "--max-samples", args->max_samples,
                   "Stop the program once this many samples are kept (0: run to the end)", {});
  add_integer_flag(*command, "--phase-instructions", args->phase_instructions,
                   "Start a new phase every N instructions (0: one phase)", {});
  command->add_option("--phase-marker", args->phase_marker,
                      "Start a phase at each output line matching this regular expression; "
                      "the phase is named by its first group (or the match)");
  command->add_option("--keep-phases", args->keep_phases,
                      "Keep only phases whose name matches; the others are cut out of the run");
  command->add_option("--stop-marker", args->stop_marker,
                      "Stop the program and end the capture at an output line matching this");
  command->add_option("--marker-file", args->marker_file,
                      "Read markers from this file the program writes, instead of its stdout");
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
  add_json_flag(*command, args->json, "a summary");
  command->callback([args] { trace_command(*args); });
}

}  // namespace sysgym::cli
