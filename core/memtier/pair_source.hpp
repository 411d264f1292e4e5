// Where the memtier env gets its trace pair. Core never opens files: the config's "trace" string
// names data of the DataSource the shell gives (files natively, what JS added with data.add in
// the npm package). The source also knows pairs added in memory and synthetic pairs
// ("synth:PATTERN[:SAMPLES[:SEED[:FOOTPRINT_MIB]]]", defaults 100000 samples, seed 1, 256 MiB).
// The trace syntax over the data's names: "DDR,HBM", a preprocessed PAIR, PREFIX (PREFIX.ddr.* +
// PREFIX.hbm.*, the binary one first), or a shipped NAME (real/NAME.*, synth/NAME.* under the
// data's shipped prefix).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <span>
#include <string>
#include <vector>

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

// Parses two raw traces into a pair (names for messages). The native tool parses the two on
// threads of its own with a progress bar; the default parses one after the other.
using TracePairReader = std::function<TracePair(const std::string& ddr_name, const DataBytes& ddr,
                                                const std::string& hbm_name, const DataBytes& hbm)>;

class InMemoryPairSource : public PairSource {
 public:
  explicit InMemoryPairSource(std::shared_ptr<const DataSource> data = nullptr);
  void add(const std::string& name, std::shared_ptr<const PreparedPair> pair);
  // Raw traces are windowed on load, cached per (name, options).
  void add_traces(const std::string& name, std::shared_ptr<const TracePair> traces);
  std::shared_ptr<const PreparedPair> load(const std::string& name,
                                           const WindowRequest& windows) override;
  bool is_preprocessed(const std::string& name) override;
  void set_trace_pair_reader(TracePairReader reader);

 private:
  std::shared_ptr<const PreparedPair> load_data(const std::string& name,
                                                const WindowRequest& windows);
  std::shared_ptr<const PreparedPair> window_cached(const std::string& key,
                                                    const std::shared_ptr<const TracePair>& traces,
                                                    const WindowRequest& windows);
  // Names loaded from the data (cached beside the added ones, but not added).
  void remember_read(const std::string& name);
  [[noreturn]] void throw_unknown(const std::string& name);
  std::shared_ptr<const DataSource> data_;
  TracePairReader read_pair_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const PreparedPair>> prepared_;
  std::map<std::string, std::shared_ptr<const TracePair>> traces_;
  std::map<std::string, std::shared_ptr<const PreparedPair>> windowed_;
  std::set<std::string> read_;
};

// The one pair source over `data`, made on first use: memtier's envs and its tools in each shell
// (wasm/families/memtier.cpp, native/families/memtier) share its cache of loaded pairs.
std::shared_ptr<InMemoryPairSource> pair_source_over(const std::shared_ptr<const DataSource>& data);

// The data names a trace name stands for: both sides of a pair, or one preprocessed pair; none
// when `name` is neither (the caller names what it looked for).
struct PairNames {
  std::string ddr, hbm, prepared;
  bool found() const { return !prepared.empty() || !ddr.empty(); }
};
// The trace syntax over `data`: "DDR,HBM" (not checked: loading names a missing side), a name
// `data` has (a preprocessed pair), or PREFIX (PREFIX.ddr.* + PREFIX.hbm.*, the binary one when
// a side has several). Throws TraceFormatError for a PREFIX with one side or several of a side.
PairNames resolve_pair_names(const DataSource& data, const std::string& name);
// resolve_pair_names, then a bare name among the shipped pairs; none when neither finds it.
PairNames find_pair_names(const DataSource& data, const std::string& name);
// The shipped pairs' names (every NAME with both sides under the shipped prefix).
std::vector<std::string> shipped_pair_names(const DataSource& data);

// Refuses bytes named as a preprocessed pair that are not one (a single raw trace, say).
void check_prepared_bytes(const std::string& name, std::span<const std::uint8_t> bytes);

// The window options an env uses for raw traces: 'aligned' when both traces count
// instructions (the physically meaningful pairing), else 'memai'; explicit options win.
WindowOptions resolve_window_mode(const TracePair& traces, WindowOptions options, bool mode_given);

}  // namespace sysgym::memtier
