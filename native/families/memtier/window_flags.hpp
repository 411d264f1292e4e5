// The window options shared by `estimate`, `preprocess` (and later `compare`), and the loading
// of a pair given as --ddr/--hbm files or as a preprocessed --input file.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>

#include "base/data_store.hpp"
#include "memtier/prepared_pair.hpp"

namespace sysgym::cli {

struct WindowFlags {
  std::string mode = "memai";
  std::string unit = "ms";
  std::optional<double> window_len;
  int page_size = 13;
  double cpu_cycles_per_ms = 1.4e6;
  std::vector<CLI::Option*> options;  // to tell whether any was given

  void add_to(CLI::App& command);
  bool any_given() const;
  // Throws UnknownNameError / ConfigError.
  memtier::WindowOptions to_options() const;
};

struct PairFlags {
  std::string trace;
  std::string ddr;
  std::string hbm;
  std::string input;
  CLI::Option* input_option = nullptr;

  // --trace NAME (the env's trace syntax), --ddr/--hbm, and --input when `allow_input`.
  void add_to(CLI::App& command, bool allow_input);
  // Loads and windows the pair, or loads the preprocessed --input. Throws sysgym::Error.
  std::shared_ptr<const memtier::PreparedPair> load(const WindowFlags& windows) const;
};

// Reads a trace in any format, with a progress bar for large files.
memtier::Trace read_trace_file(const std::string& path);
// Both traces of a pair, read concurrently. Throws sysgym::Error (the DDR file's first).
memtier::TracePair read_trace_pair(const std::string& ddr, const std::string& hbm);
// The same over bytes already read: memtier's TracePairReader in the native tool.
memtier::TracePair read_trace_pair_bytes(const std::string& ddr, const DataBytes& ddr_bytes,
                                         const std::string& hbm, const DataBytes& hbm_bytes);
memtier::PreparedPair read_prepared_file(const std::string& path);

}  // namespace sysgym::cli
