#include "window_flags.hpp"

#include <future>
#include <mutex>

#include "base/error.hpp"
#include "catalog.hpp"
#include "data_files.hpp"
#include "files.hpp"
#include "memtier/pair_source.hpp"
#include "memtier/prepared_file.hpp"
#include "memtier/traces/load.hpp"
#include "numeric_flags.hpp"
#include "progress_bar.hpp"

namespace sysgym::cli {

void WindowFlags::add_to(CLI::App& command) {
  options.push_back(command
                        .add_option("--mode", mode,
                                    "Window mode: memai (MemAI-compatible equal slices per "
                                    "phase) or aligned (equal instruction intervals)")
                        ->capture_default_str());
  options.push_back(
      command
          .add_option("--unit", unit, "Unit of comparison in memai mode: ms, instrs or accesses")
          ->capture_default_str());
  options.push_back(add_number_flag(command, "--window-len", window_len,
                                    "Window length in the unit of comparison (default: mean "
                                    "phase span; aligned: 1/1000 of the instructions)",
                                    memtier::kWindowLenRange));
  options.push_back(add_integer_flag(command, "--page-size", page_size,
                                     "log2 of the page size in bytes (13 = 8 KiB, as MemAI)",
                                     memtier::kPageSizeBitsRange));
  options.push_back(add_number_flag(command, "--cpu-cycles-per-ms", cpu_cycles_per_ms,
                                    "CPU cycles per millisecond of CSV Timestamps (1.4 GHz KNL)",
                                    memtier::kCpuCyclesPerMsRange));
}

bool WindowFlags::any_given() const {
  for (const CLI::Option* option : options) {
    if (option->count() > 0) return true;
  }
  return false;
}

memtier::WindowOptions WindowFlags::to_options() const {
  memtier::WindowOptions out;
  out.mode = memtier::parse_window_mode(mode);
  out.unit = memtier::parse_window_unit(unit);
  out.window_len = window_len;
  out.page_size_bits = page_size;
  out.cpu_cycles_per_ms = cpu_cycles_per_ms;
  memtier::validate_window_options(out);
  return out;
}

void PairFlags::add_to(CLI::App& command, bool allow_input) {
  CLI::Option* ddr_option = command.add_option(
      "--ddr", ddr, "Trace of the run with all data in DDR (CSV, perf script or binary)");
  CLI::Option* hbm_option =
      command.add_option("--hbm", hbm, "Trace of the same run with all data in HBM");
  ddr_option->needs(hbm_option);
  hbm_option->needs(ddr_option);
  CLI::Option* trace_option = command.add_option(
      "--trace", trace,
      "The pair by name, as the env's trace key takes it: PREFIX (PREFIX.ddr.* + PREFIX.hbm.*), "
      "DDR,HBM, PAIR.bin, a shipped name (lammps) or synth:PATTERN");
  trace_option->excludes(ddr_option)->excludes(hbm_option);
  if (allow_input) {
    input_option =
        command.add_option("--input", input, "A pair preprocessed by `sysgym memtier preprocess`");
    input_option->excludes(ddr_option)->excludes(hbm_option)->excludes(trace_option);
  }
}

memtier::Trace read_trace_file(const std::string& path) {
  const MappedFile file(path);
  ProgressBar bar("reading " + path);
  return memtier::load_trace(file.bytes(), path, bar.callback());
}

memtier::TracePair read_trace_pair(const std::string& ddr, const std::string& hbm) {
  const FileData files;
  return read_trace_pair_bytes(ddr, files.read(ddr), hbm, files.read(hbm));
}

memtier::TracePair read_trace_pair_bytes(const std::string& ddr, const DataBytes& ddr_bytes,
                                         const std::string& hbm, const DataBytes& hbm_bytes) {
  // The two files parse independently: one thread each halves the wait on two cores.
  ProgressBar bar("reading traces");
  std::mutex progress_mutex;
  std::uint64_t done[2] = {0, 0};
  const std::uint64_t total = ddr_bytes.bytes.size() + hbm_bytes.bytes.size();
  auto progress_of = [&](int which) -> ProgressFn {
    return [&, which](std::uint64_t bytes, std::uint64_t) {
      const std::lock_guard<std::mutex> lock(progress_mutex);
      done[which] = bytes;
      bar.update(done[0] + done[1], total);
    };
  };
  auto hbm_trace = std::async(std::launch::async, [&] {
    return memtier::load_trace(hbm_bytes.bytes, hbm, progress_of(1));
  });
  memtier::TracePair pair;
  pair.ddr = memtier::load_trace(ddr_bytes.bytes, ddr, progress_of(0));
  pair.hbm = hbm_trace.get();
  return pair;
}

memtier::PreparedPair read_prepared_file(const std::string& path) {
  // The pair's large columns view the mapping, which lives as long as the pair.
  const auto file = std::make_shared<const MappedFile>(path);
  return memtier::decode_prepared_pair(ContainerReader(file->bytes(), path), file);
}

std::shared_ptr<const memtier::PreparedPair> PairFlags::load(const WindowFlags& windows) const {
  if (!trace.empty()) {
    // The flags' own defaults (memai windows), so --trace DDR,HBM equals --ddr DDR --hbm HBM.
    return memtier::pair_source_over(catalog().data)
        ->load(trace, {windows.to_options(), true, windows.any_given()});
  }
  if (input_option != nullptr && input_option->count() > 0) {
    if (windows.any_given()) {
      throw ConfigError(
          "window options (--mode, --unit, --window-len, --page-size, "
          "--cpu-cycles-per-ms) are fixed when a pair is preprocessed; run "
          "`sysgym memtier preprocess` again to change them");
    }
    return std::make_shared<const memtier::PreparedPair>(read_prepared_file(input));
  }
  if (ddr.empty() || hbm.empty()) {
    throw ConfigError(input_option != nullptr
                          ? "give the trace pair with --trace NAME, --ddr FILE --hbm FILE, or a "
                            "preprocessed pair with --input FILE"
                          : "give the trace pair with --trace NAME or --ddr FILE --hbm FILE");
  }
  const memtier::WindowOptions options = windows.to_options();
  memtier::TracePair pair = read_trace_pair(ddr, hbm);
  ProgressBar bar("windowing");
  return std::make_shared<const memtier::PreparedPair>(
      memtier::prepare_pair(pair, options, bar.callback()));
}

}  // namespace sysgym::cli
