// Where the memtier env gets its trace pair. Core never opens files: the config's "trace" string
// is resolved by a PairSource that the shell provides. The in-memory source knows pairs added by
// name, synthetic pairs ("synth:PATTERN[:SAMPLES[:SEED[:FOOTPRINT_MIB]]]", defaults 100000
// samples, seed 1, 256 MiB) and, given a DataStore, the trace syntax over its names: "DDR,HBM",
// a preprocessed PAIR, or PREFIX (PREFIX.ddr.* + PREFIX.hbm.*, the binary one first). The native
// tool's source reads files instead; the wasm package's reads what JS added with data.add.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>

#include "base/data_store.hpp"
#include "memtier/prepared_pair.hpp"

namespace sysgym::memtier {

// Window options as a config gave them: raw traces are windowed with `options` (mode 'aligned'
// when both traces count instructions and no mode was given); a preprocessed pair refuses them.
struct WindowRequest {
  WindowOptions options;
  bool mode_given = false;
  bool any_given = false;
};

class PairSource {
 public:
  virtual ~PairSource() = default;
  // The pair named `name`. Throws sysgym::Error (UnknownNameError, TraceFormatError, IoError ...).
  virtual std::shared_ptr<const PreparedPair> load(const std::string& name,
                                                   const WindowRequest& windows) = 0;
  // Whether `name` is a preprocessed pair, which brings its own windows and refuses window
  // options (false for raw traces, synthetic pairs and names the source does not know).
  virtual bool is_preprocessed(const std::string& name) = 0;
};

class InMemoryPairSource : public PairSource {
 public:
  explicit InMemoryPairSource(std::shared_ptr<const DataStore> data = nullptr)
      : data_(std::move(data)) {}
  void add(const std::string& name, std::shared_ptr<const PreparedPair> pair);
  // Raw traces are windowed on load, cached per (name, options).
  void add_traces(const std::string& name, std::shared_ptr<const TracePair> traces);
  std::shared_ptr<const PreparedPair> load(const std::string& name,
                                           const WindowRequest& windows) override;
  bool is_preprocessed(const std::string& name) override;

 protected:
  // Called for names not held in memory: resolves them over the data store (the native source
  // reads files instead).
  virtual std::shared_ptr<const PreparedPair> load_other(const std::string& name,
                                                         const WindowRequest& windows);
  std::shared_ptr<const PreparedPair> window_cached(const std::string& key,
                                                    const std::shared_ptr<const TracePair>& traces,
                                                    const WindowRequest& windows);
  // Refuses window options for an already windowed pair.
  static void check_unwindowed(const std::string& name, const WindowRequest& windows);

 private:
  std::shared_ptr<const PreparedPair> load_data(const std::string& name,
                                                const WindowRequest& windows);
  std::shared_ptr<const DataStore> data_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const PreparedPair>> prepared_;
  std::map<std::string, std::shared_ptr<const TracePair>> traces_;
  std::map<std::string, std::shared_ptr<const PreparedPair>> windowed_;
};

// The data names a trace name stands for: both sides of a pair, or one preprocessed pair; none
// when `name` is neither (the caller names what it looked for).
struct PairNames {
  std::string ddr, hbm, prepared;
  bool found() const { return !prepared.empty() || !ddr.empty(); }
};
// The trace syntax over `data`: "DDR,HBM" (not checked: loading names a missing side), a name
// `data` has (a preprocessed pair), or PREFIX (PREFIX.ddr.* + PREFIX.hbm.*, the binary one when
// a side has several). Throws TraceFormatError for a PREFIX with one side or several of a side.
PairNames resolve_pair_names(const DataNames& data, const std::string& name);

// Refuses bytes named as a preprocessed pair that are not one (a single raw trace, say).
void check_prepared_bytes(const std::string& name, std::span<const std::uint8_t> bytes);

// The window options an env uses for raw traces: 'aligned' when both traces count
// instructions (the physically meaningful pairing), else 'memai'; explicit options win.
WindowOptions resolve_window_mode(const TracePair& traces, WindowOptions options, bool mode_given);

}  // namespace sysgym::memtier
