// memtier-v0: page placement between slow DDR and capacity-limited fast HBM.
//
// Description: replays a differential trace pair (the same run traced with all data in DDR and
//   with all data in HBM; MemAI, "Rapid Execution Time Estimation for Heterogeneous Memory
//   Systems through Differential Tracing", ISC 2022) window by window. Before each window the
//   agent chooses which address bins live in HBM; the window's time is estimated from the share
//   of its DDR samples that fall on HBM pages (estimator.hpp).
// Observation (Box, float32, layout from observation_layout()): for B bins and H history,
//   hist[B]        access histogram of the last played window, log2(1 + count) / log2(1 + n)
//   resident[B]    fraction of each bin's bytes in HBM
//   hist_prev_k[B] histograms of the k-th window before (k = 1..H)
//   free_capacity  free HBM bytes / capacity
//   progress       windows played / episode length
//   last_speedup   (t_ddr - t_hbm) / t_ddr of the last played window, clamped to [-1, 1]
//   last_duration  t_ddr of the last played window / (2 x mean window t_ddr), clamped to [0, 1]
//   capacity_share HBM capacity / footprint, clamped to [0, 1] (it varies per episode when
//                  hbm_capacity is a range)
//   The observation at reset shows the window before the episode's first (zeros at window 0):
//   the agent never sees the window it is placing for.
// Action: "bins" mode, MultiBinary(B): 1 = the bin should be in HBM (the whole desired set;
//   bins over capacity are admitted by the `admission` priority, hottest in the last window or
//   lowest address first, the last one partially, the rest refused). "discrete" mode,
//   Discrete(2B + 1): 0 keeps the placement, 1..B promotes bin a-1, B+1..2B demotes bin a-B-1.
//   "swap" mode, Discrete(13): page-granular swaps of best-scored pages from the first-touch
//   placement, 0 keeps (page_swaps.hpp); its observation is the 57 features named there instead
//   of the bins' channels.
//   Baselines and oracles may instead place page-granular ranges: a Placement directive
//   (step_directive) or step_placement().
// Reward: -(estimated window time + migration time) in ms, times reward_scale (auto: 1 / mean
//   DDR window time, so an all-DDR step costs about -1). With reward "saving": (the window's
//   DDR time - its estimated time - migration time) x reward_scale (auto: 1 / the mean window's
//   DDR-HBM difference, so an all-HBM step earns about +1 on any trace); the same optimum, as
//   the DDR time does not depend on the actions. Migration time = bytes moved /
//   migration bandwidth (or pages moved x ms per page); the first placement of an episode is
//   free by default (it models where data is allocated).
// Episode end: terminated after the trace's last window; truncated at the end of a configured
//   episode_length or episode range.
// Config: see memtier_config.hpp (every key, unit and default).
// Version history: v0, the first version.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "env/env.hpp"
#include "env/registry.hpp"
#include "memtier/bins.hpp"
#include "memtier/hbm_memory.hpp"
#include "memtier/memtier_config.hpp"
#include "memtier/page_swaps.hpp"
#include "memtier/pair_source.hpp"

namespace sysgym::memtier {

inline constexpr const char* kMemtierId = "memtier-v0";

// Totals of an episode so far.
struct EpisodeSummary {
  std::size_t windows = 0;
  double estimated_ms = 0;  // windows' estimated time, migration excluded
  double migration_ms = 0;
  double total_ms = 0;    // estimated + migration
  double ddr_ms = 0;      // the same windows all in DDR
  double hbm_ms = 0;      // the same windows all in HBM
  double gap_closed = 0;  // (ddr - total) / (ddr - hbm); 0 when ddr == hbm
  std::uint64_t promoted_bytes = 0;
  std::uint64_t demoted_bytes = 0;
  std::uint64_t refused_bytes = 0;
  std::uint64_t redundant_requests = 0;
  std::uint64_t bytes_moved() const { return promoted_bytes + demoted_bytes; }
  nlohmann::json to_json() const;
};

// Plain data for a front end: what the last step did, nothing drawn.
struct RenderFrame {
  std::int64_t window = -1;                  // last played window (-1 before the first step)
  std::span<const std::uint32_t> histogram;  // raw sample counts per bin
  std::span<const float> resident_fraction;  // per bin
  std::span<const AddressRange> resident;    // HBM ranges in force
  double t_ddr_ms = 0, t_hbm_ms = 0, window_ms = 0, migration_ms = 0;
  std::uint64_t hbm_used_bytes = 0;
};

// A page-granular placement for the next window: address ranges in priority order, admitted
// until the capacity is full. Recorded as {"ranges": ["0x..:0x..", ...]}, or {"same_ranges":
// true} when the previous step placed the same ranges.
struct Placement final : Directive {
  std::vector<AddressRange> ranges;
  std::unique_ptr<Directive> clone() const override;
  void record(nlohmann::json& step, const Directive* previous) const override;
};

class MemtierEnv : public Env {
 public:
  // Throws ConfigError / UnknownNameError / TraceFormatError from the config and the source.
  MemtierEnv(const nlohmann::json& config, PairSource& source);

  nlohmann::json config() const override { return config_.resolved; }
  nlohmann::json given_config() const override { return config_.input; }
  // Capacity in bytes, footprint, page size, windows, DDR and HBM times of the whole trace.
  nlohmann::json facts() const override { return facts_; }
  std::vector<std::string> observation_layout() const override;
  nlohmann::json episode_summary() const override { return summary().to_json(); }
  std::string primary_metric() const override { return "gap_closed"; }
  // Total time orders policies even where HBM is slower than DDR and gap closed changes sign.
  Ranking ranking() const override { return {"total_ms", false}; }
  std::vector<std::string> report_columns() const override {
    return {"estimated_ms", "migration_ms", "total_ms", "gap_closed", "bytes_moved"};
  }
  nlohmann::json episode_options() const override { return {{"start", begin_}}; }
  // Bins: channels hist, resident (the state channel), hist_prev_1..history; discrete verbs
  // promote and demote.
  std::optional<EntityLayout> entity_layout() const override;
  // "histogram" (uint32 sample counts per bin) and "resident" (float32 fraction per bin).
  Frame frame() const override;
  // "bins": [{lo, hi, bytes}] (hex addresses), "start": first window, "windows": their count.
  nlohmann::json frame_context() const override;
  bool read_directive(const nlohmann::json& step,
                      std::unique_ptr<Directive>& directive) const override;

  // A page-granular placement for the next window instead of an action: `ranges` in priority
  // order, admitted until the capacity is full. For baselines and oracles.
  StepResult step_placement(std::span<const AddressRange> ranges);

  // What policies and front ends may read.
  const PreparedPair& pair() const { return *pair_; }
  const BinLayout& bins() const { return bins_; }
  const HbmMemory& memory() const { return memory_; }
  std::uint64_t capacity_bytes() const { return memory_.capacity_bytes(); }
  std::size_t next_window() const { return next_; }
  std::size_t episode_begin() const { return begin_; }
  std::size_t episode_end() const { return end_; }
  const MemtierConfig& settings() const { return config_; }
  EpisodeSummary summary() const;
  RenderFrame render_frame() const;
  // What moving `bytes` costs under the configured bandwidth or per-page cost.
  double migration_ms_for_bytes(std::uint64_t bytes) const;

 protected:
  void on_reset(Rng& rng, const nlohmann::json& options) override;
  StepOutcome on_step(std::span<const double> action) override;
  StepOutcome on_directive(const Directive& directive) override;

 private:
  struct Loaded;
  explicit MemtierEnv(Loaded loaded);
  static Loaded load(const nlohmann::json& config, PairSource& source);
  // Discrete requests (the resident set plus or minus a bin); returns whether the move changes
  // nothing (promoting a resident bin, demoting an absent one).
  Migration place_bins(std::span<const double> action);
  bool requests_for_discrete(std::size_t choice);
  // Plays window next_ under the placement in force; fills observation and info.
  StepOutcome play(const Migration& migration);
  StepOutcome place_ranges(std::span<const AddressRange> ranges);
  // Histogram and samples in HBM of window next_; ages the observed histograms.
  std::uint64_t observe_next_window();
  void write_observation();
  void measure_resident_fractions();
  void order_by_heat();
  float fraction_of_bin(std::size_t bin, std::uint64_t bytes) const;
  void write_swap_features(std::span<float> obs);
  void plan_swaps();

  MemtierConfig config_;
  std::shared_ptr<const PreparedPair> pair_;
  BinLayout bins_;
  WindowBinRuns runs_;
  CapacityRange capacity_range_;
  HbmMemory memory_;
  nlohmann::json facts_;
  double reward_scale_ = 1.0;
  double mean_window_ddr_ms_ = 0.0;
  std::vector<double> log_table_;  // log2(1 + n) for small n

  // Episode state.
  std::size_t begin_ = 0, end_ = 0, next_ = 0;
  bool first_placement_ = true;
  std::vector<AddressRange> requests_;
  std::vector<std::uint32_t> histogram_;  // last played window
  std::vector<float> history_;            // H x B normalised histograms, newest first
  std::vector<float> resident_fraction_;
  // Set by place_bins() until the window is played and observed: each bin then holds a prefix of
  // its pages in HBM, those below hbm_cut_[bin], and resident_fraction_ is filled already.
  bool bin_prefixes_ = false;
  std::vector<std::uint32_t> hbm_cut_;
  std::vector<std::uint32_t> order_;      // requested, then admitted, bins in address order
  std::vector<std::uint32_t> priority_;   // requested bins, admission order
  std::vector<std::uint64_t> heat_keys_;  // order_by_heat()'s scratch: hot bins' keys
  std::vector<std::uint32_t> cold_;       // and cold bins
  std::vector<std::uint64_t> take_;       // bytes admitted per bin (scratch)
  std::vector<AddressRange> placement_;
  std::vector<IdInterval> placement_ids_;
  std::uint64_t max_bin_bytes_ = 0;
  double last_t_ddr_ms_ = 0, last_t_hbm_ms_ = 0, last_window_ms_ = 0, last_migration_ms_ = 0;
  std::uint64_t last_samples_ = 0;
  std::uint64_t last_hits_ = 0;       // samples of the last window that were in HBM
  std::unique_ptr<PageSwaps> swaps_;  // action_mode swap
  double played_gap_ms_ = 0;          // DDR - HBM time of the windows played (swap mode)
  std::uint64_t played_samples_ = 0;
  // Episode totals: exact integer ticks where possible (see estimator.hpp).
  std::uint64_t ddr_ticks_ = 0, hbm_ticks_ = 0;
  std::int64_t exact_saving_ = 0;
  double partial_saving_ = 0.0;
  EpisodeSummary totals_;
};

// Registers memtier-v0, resolving traces through `source`.
void register_memtier(Registry& registry, const std::shared_ptr<PairSource>& source);

}  // namespace sysgym::memtier
