// memtier-v0 (see memtier_env.hpp for the env's documentation).
#include "memtier/memtier_env.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "base/det_math.hpp"
#include "base/error.hpp"
#include "env/config_reader.hpp"
#include "profiling/profiler.hpp"

namespace sysgym::memtier {
namespace {

// memtier's phases of a step, for `sysgym profile` (the windowing is data loading: prepare_pair).
const profiling::Op kMemoryModelPhase("memtier.memory_model", profiling::Category::kSimulation);
const profiling::Op kEstimatorPhase("memtier.estimator", profiling::Category::kSimulation);
const profiling::Op kObservationPhase("memtier.observation", profiling::Category::kSimulation);

constexpr std::size_t kLogTableSize = 4096;
// free_capacity, progress, last_speedup, last_duration, capacity_share
constexpr std::size_t kScalars = 5;

const std::vector<std::string> kInfoKeys = {
    "window",         "t_ddr_ms",      "t_hbm_ms",      "window_ms",     "migration_ms",
    "promoted_bytes", "demoted_bytes", "refused_bytes", "kept_bytes",    "redundant_requests",
    "hbm_used_bytes", "hbm_occupancy", "samples",       "samples_in_hbm"};
enum InfoIndex {
  kWindow,
  kTDdr,
  kTHbm,
  kWindowMs,
  kMigrationMs,
  kPromoted,
  kDemoted,
  kRefused,
  kKept,
  kRedundant,
  kUsed,
  kOccupancy,
  kSamples,
  kSamplesInHbm
};

Space make_observation_space(const MemtierConfig& c) {
  if (c.action_mode == ActionMode::kSwap) {
    std::vector<float> low = PageSwaps::feature_lows();
    const std::size_t size = low.size();
    std::vector<float> high(size, 1.0f);
    return Space::box({size}, std::move(low), std::move(high));
  }
  const std::size_t bins = c.bins;
  const std::size_t history = c.history;
  const std::size_t size = bins * (2 + history) + kScalars;
  std::vector<float> low(size, 0.0f);
  std::vector<float> high(size, 1.0f);
  low[size - 3] = -1.0f;  // last_speedup
  return Space::box({size}, std::move(low), std::move(high));
}

Space make_action_space(const MemtierConfig& c) {
  if (c.action_mode == ActionMode::kSwap)
    return Space::discrete(static_cast<std::int64_t>(kSwapActions));
  return c.action_mode == ActionMode::kBins
             ? Space::multi_binary(c.bins)
             : Space::discrete(static_cast<std::int64_t>(2 * c.bins + 1));
}

}  // namespace

struct MemtierEnv::Loaded {
  MemtierConfig config;
  std::shared_ptr<const PreparedPair> pair;
};

MemtierEnv::Loaded MemtierEnv::load(const nlohmann::json& json, PairSource& source) {
  MemtierConfig config = parse_memtier_config(json, kMemtierId);
  auto pair = source.load(config.trace, config.windows);
  return {std::move(config), std::move(pair)};
}

nlohmann::json EpisodeSummary::to_json() const {
  return {{"windows", windows},
          {"estimated_ms", estimated_ms},
          {"migration_ms", migration_ms},
          {"total_ms", total_ms},
          {"ddr_ms", ddr_ms},
          {"hbm_ms", hbm_ms},
          {"gap_closed", gap_closed},
          {"bytes_moved", bytes_moved()},
          {"promoted_bytes", promoted_bytes},
          {"demoted_bytes", demoted_bytes},
          {"refused_bytes", refused_bytes},
          {"redundant_requests", redundant_requests}};
}

MemtierEnv::MemtierEnv(const nlohmann::json& config, PairSource& source)
    : MemtierEnv(load(config, source)) {}

MemtierEnv::MemtierEnv(Loaded loaded)
    : Env(kMemtierId, make_observation_space(loaded.config), make_action_space(loaded.config),
          kInfoKeys),
      config_(std::move(loaded.config)),
      pair_(std::move(loaded.pair)),
      bins_(*pair_, config_.bins, config_.interval_distance, std::string(kMemtierId) + " config"),
      runs_(*pair_, bins_),
      capacity_range_(resolve_capacity_range(config_.hbm_capacity, bins_.footprint_bytes(),
                                             pair_->page_bytes(),
                                             std::string(kMemtierId) + " config")),
      memory_(*pair_, capacity_range_.low) {
  const std::string context = std::string(kMemtierId) + " config";
  const std::size_t windows = pair_->window_count();
  if (config_.episode_start >= windows) {
    throw ConfigError(context + ": 'episode_start' is " + std::to_string(config_.episode_start) +
                      " but the trace has " + std::to_string(windows) + " windows");
  }
  if (config_.episode_start + config_.episode_length > windows) {
    throw ConfigError(context + ": 'episode_length' " + std::to_string(config_.episode_length) +
                      " from window " + std::to_string(config_.episode_start) +
                      " runs past the trace's " + std::to_string(windows) + " windows");
  }
  mean_window_ddr_ms_ = pair_->ddr_ms() / static_cast<double>(windows);
  // Auto scale: an all-DDR step earns about -1 (time), an all-HBM step about +1 (saving).
  const double mean_gap_ms = (pair_->ddr_ms() - pair_->hbm_ms()) / static_cast<double>(windows);
  const double unit =
      config_.reward_saving && mean_gap_ms > 0.0 ? mean_gap_ms : mean_window_ddr_ms_;
  reward_scale_ = config_.reward_scale.value_or(unit > 0.0 ? 1.0 / unit : 1.0);
  facts_ = {{"hbm_capacity_bytes", memory_.capacity_bytes()},
            {"footprint_bytes", bins_.footprint_bytes()},
            {"page_bytes", pair_->page_bytes()},
            {"windows", windows},
            {"window_mode", window_mode_name(pair_->options.mode)},
            {"reward_scale", reward_scale_},
            {"ddr_ms", pair_->ddr_ms()},
            {"hbm_ms", pair_->hbm_ms()},
            // The most any placement can win, as a share of all-DDR: near 0, every policy's
            // rewards are about alike and there is little to learn.
            {"gap_share",
             pair_->ddr_ms() > 0.0 ? (pair_->ddr_ms() - pair_->hbm_ms()) / pair_->ddr_ms() : 0.0}};
  if (capacity_range_.high > capacity_range_.low) {
    facts_["hbm_capacity_range_bytes"] = {capacity_range_.low, capacity_range_.high};
  }
  log_table_.resize(kLogTableSize);
  for (std::size_t n = 0; n < kLogTableSize; ++n)
    log_table_[n] = log2_1p_count(n);
  histogram_.assign(config_.bins, 0);
  history_.assign(config_.bins * (config_.history + 1), 0.0f);  // row 0: newest
  take_.assign(config_.bins, 0);
  hbm_cut_.assign(config_.bins, 0);
  for (const Bin& bin : bins_.bins())
    max_bin_bytes_ = std::max(max_bin_bytes_, bin.bytes);
  resident_fraction_.assign(config_.bins, 0.0f);
  if (config_.action_mode == ActionMode::kSwap) swaps_ = std::make_unique<PageSwaps>(*pair_);
}

void MemtierEnv::on_reset(Rng& rng, const nlohmann::json& options) {
  ConfigReader reader(options, std::string(kMemtierId) + " reset options");
  const std::size_t windows = pair_->window_count();
  const std::size_t length =
      config_.episode_length > 0 ? config_.episode_length : windows - config_.episode_start;
  std::size_t start = config_.episode_start;
  const std::size_t last_start = config_.episode_length > 0 ? windows - length : windows - 1;
  if (config_.random_start) start += rng.below(last_start - config_.episode_start + 1);
  start = static_cast<std::size_t>(reader.integer("start", static_cast<std::int64_t>(start), 0,
                                                  static_cast<std::int64_t>(windows - 1)));
  reader.finish();
  begin_ = start;
  end_ = config_.episode_length > 0 ? std::min(windows, start + length) : windows;
  next_ = begin_;
  first_placement_ = true;
  memory_.clear();
  if (capacity_range_.high > capacity_range_.low) {
    // A capacity per episode, in whole pages, so one policy learns to use any in the range.
    const std::uint64_t page = pair_->page_bytes();
    const std::uint64_t steps = (capacity_range_.high - capacity_range_.low) / page;
    memory_.set_capacity(capacity_range_.low + page * rng.below(steps + 1));
  }
  std::fill(history_.begin(), history_.end(), 0.0f);
  std::fill(histogram_.begin(), histogram_.end(), 0u);
  std::fill(resident_fraction_.begin(), resident_fraction_.end(), 0.0f);
  bin_prefixes_ = false;
  last_t_ddr_ms_ = last_t_hbm_ms_ = last_window_ms_ = last_migration_ms_ = 0.0;
  last_samples_ = 0;
  ddr_ticks_ = hbm_ticks_ = 0;
  exact_saving_ = 0;
  partial_saving_ = 0.0;
  totals_ = EpisodeSummary();
  last_hits_ = 0;
  played_gap_ms_ = 0;
  played_samples_ = 0;
  if (swaps_) swaps_->start(begin_, memory_.capacity_bytes() / pair_->page_bytes());
  if (begin_ > 0) {
    // Show the window before the episode, as if it had just been played all in DDR.
    next_ = begin_ - 1;
    observe_next_window();
    last_window_ms_ = last_t_ddr_ms_;
    next_ = begin_;
    if (swaps_) plan_swaps();
  } else if (swaps_) {
    swaps_->context.saving_per_sample_ms = 0;  // nothing played: no move pays yet
    swaps_->plan();
  }
  write_observation();
  std::fill(info_buffer().begin(), info_buffer().end(), 0.0);
  info_buffer()[kWindow] = static_cast<double>(begin_) - 1.0;
}

std::uint64_t MemtierEnv::observe_next_window() {
  const PreparedPair& pair = *pair_;
  const std::size_t w = next_;
  std::fill(histogram_.begin(), histogram_.end(), 0u);
  const std::uint32_t* prefix = pair.count_prefix.data();
  const std::uint32_t* ids = pair.entry_page.data();
  std::uint64_t n_hbm = 0;
  // `hbm_samples(bin, first, end)`: the samples of entries [first, end), all in `bin`, that
  // were in HBM; the walk is compiled once for each way of telling.
  const auto count_window = [&](auto hbm_samples) {
    std::uint64_t first = pair.entry_offset[w];
    for (std::uint64_t r = runs_.offset[w]; r < runs_.offset[w + 1]; ++r) {
      const std::uint32_t bin = runs_.bin[r];
      const std::uint64_t end = runs_.end[r];
      histogram_[bin] = prefix[end] - prefix[first];
      n_hbm += hbm_samples(bin, first, end);
      first = end;
    }
  };
  if (bin_prefixes_) {
    // A bin's HBM pages are those below its cut, so its HBM entries are a prefix of its run:
    // counted without a branch (which pages lie below is the agent's choice, and a mispredicted
    // branch per entry was a fifth of this function).
    count_window([&](std::uint32_t bin, std::uint64_t first, std::uint64_t end) {
      const std::uint32_t cut = hbm_cut_[bin];
      std::uint64_t below = 0;
      for (std::uint64_t e = first; e < end; ++e)
        below += ids[e] < cut ? 1 : 0;
      return std::uint64_t{prefix[first + below] - prefix[first]};
    });
  } else {
    // Entries and resident id intervals are both sorted by page id: one merge.
    const auto& resident = memory_.resident_ids();
    auto range = resident.begin();
    count_window([&](std::uint32_t, std::uint64_t first, std::uint64_t end) {
      std::uint64_t in_hbm = 0;
      for (std::uint64_t e = first; e < end; ++e) {
        const std::uint32_t id = ids[e];
        while (range != resident.end() && range->second <= id)
          ++range;
        const bool hit = range != resident.end() && range->first <= id;
        in_hbm += hit ? prefix[e + 1] - prefix[e] : 0;
      }
      return in_hbm;
    });
  }
  last_samples_ = pair.window_samples(w);
  last_t_ddr_ms_ = pair.window_ddr_ms(w);
  last_t_hbm_ms_ = static_cast<double>(pair.hbm_ticks[w]) / pair.ticks_per_ms;
  // Age the normalised histograms: row k holds the window k steps back.
  const std::size_t b = config_.bins;
  std::copy_backward(history_.begin(), history_.end() - static_cast<std::ptrdiff_t>(b),
                     history_.end());
  // A bin without samples is 0; only the window's bins cost a division.
  std::fill(history_.begin(), history_.begin() + static_cast<std::ptrdiff_t>(b), 0.0f);
  const double total =
      last_samples_ < kLogTableSize ? log_table_[last_samples_] : log2_1p_count(last_samples_);
  for (std::uint64_t r = runs_.offset[w]; r < runs_.offset[w + 1]; ++r) {
    const std::uint32_t c = histogram_[runs_.bin[r]];
    const double value = c < kLogTableSize ? log_table_[c] : log2_1p_count(c);
    history_[runs_.bin[r]] = static_cast<float>(value / total);
  }
  return n_hbm;
}

void MemtierEnv::write_observation() {
  const std::size_t b = config_.bins;
  std::span<float> obs = observation_buffer();
  // hist, then resident, then the older histograms.
  if (!swaps_)
    std::copy(history_.begin(), history_.begin() + static_cast<std::ptrdiff_t>(b), obs.begin());
  // Per-bin residency is drawn by front ends in every mode.
  if (!bin_prefixes_) measure_resident_fractions();
  if (swaps_) {
    write_swap_features(obs);
    return;
  }
  std::copy(resident_fraction_.begin(), resident_fraction_.end(),
            obs.begin() + static_cast<std::ptrdiff_t>(b));
  std::copy(history_.begin() + static_cast<std::ptrdiff_t>(b), history_.end(),
            obs.begin() + static_cast<std::ptrdiff_t>(2 * b));
  float* scalars = obs.data() + obs.size() - kScalars;
  const double capacity = static_cast<double>(memory_.capacity_bytes());
  scalars[0] =
      static_cast<float>((capacity - static_cast<double>(memory_.used_bytes())) / capacity);
  scalars[1] =
      static_cast<float>(static_cast<double>(next_ - begin_) / static_cast<double>(end_ - begin_));
  const double speedup =
      last_t_ddr_ms_ > 0.0 ? (last_t_ddr_ms_ - last_t_hbm_ms_) / last_t_ddr_ms_ : 0.0;
  scalars[2] = static_cast<float>(std::clamp(speedup, -1.0, 1.0));
  const double duration =
      mean_window_ddr_ms_ > 0.0 ? last_t_ddr_ms_ / (2.0 * mean_window_ddr_ms_) : 0.0;
  scalars[3] = static_cast<float>(std::clamp(duration, 0.0, 1.0));
  scalars[4] =
      static_cast<float>(std::min(1.0, capacity / static_cast<double>(bins_.footprint_bytes())));
}

// One merge of the bins' ranges (in address order) with the HBM ranges.
void MemtierEnv::measure_resident_fractions() {
  const auto& resident = memory_.resident();
  std::size_t r = 0;
  for (std::size_t i = 0; i < config_.bins; ++i) {
    std::uint64_t in_hbm = 0;
    for (const AddressRange& range : bins_.bin(i).ranges) {
      while (r < resident.size() && resident[r].hi <= range.lo)
        ++r;
      for (std::size_t k = r; k < resident.size() && resident[k].lo < range.hi; ++k) {
        in_hbm += std::min(range.hi, resident[k].hi) - std::max(range.lo, resident[k].lo);
      }
    }
    resident_fraction_[i] = fraction_of_bin(i, in_hbm);
  }
}

float MemtierEnv::fraction_of_bin(std::size_t bin, std::uint64_t bytes) const {
  return static_cast<float>(static_cast<double>(bytes) / static_cast<double>(bins_.bin(bin).bytes));
}

// Puts the requested bins that fit first, hottest first (ties: lower bin first). Only those need
// ordering: the `sure` hottest fit whatever their order; after them the hottest of the rest is
// brought forward, one at a time, until the capacity is used (usually two: the last full bin and
// the partial one; many when bins are a page or two). Each bin is one integer key (heat, then the
// complement of its index): keys are unique, so which bins come first does not depend on the
// standard library's algorithm (native and wasm agree), and the bins left over get nothing.
// A window of a few hundred samples leaves most bins cold: those follow the hot ones in address
// order, which is their key order, so only the hot ones are selected among.
void MemtierEnv::order_by_heat() {
  const std::size_t n = priority_.size();
  heat_keys_.resize(n);
  cold_.resize(n);
  std::size_t hot = 0;
  std::size_t cold = 0;
  for (std::uint32_t i : priority_) {  // without a branch: which bins are hot is the program's
    const std::uint32_t heat = histogram_[i];
    heat_keys_[hot] = (std::uint64_t{heat} << 32) | (~i & 0xffffffffu);
    cold_[cold] = i;
    hot += heat != 0 ? 1 : 0;
    cold += heat == 0 ? 1 : 0;
  }
  const auto bin_of = [](std::uint64_t key) { return ~static_cast<std::uint32_t>(key); };
  const std::uint64_t capacity = memory_.capacity_bytes();
  const std::size_t sure = std::min<std::size_t>(capacity / max_bin_bytes_, hot);
  const auto first = heat_keys_.begin();
  const auto last = first + static_cast<std::ptrdiff_t>(hot);
  if (sure < hot) {
    std::nth_element(first, first + static_cast<std::ptrdiff_t>(sure), last, std::greater<>());
  }
  std::uint64_t used = 0;
  for (std::size_t k = 0; k < sure; ++k)
    used += bins_.bin(bin_of(heat_keys_[k])).bytes;
  for (std::size_t k = sure; k < hot && used < capacity; ++k) {
    const auto next = first + static_cast<std::ptrdiff_t>(k);
    std::iter_swap(next, std::max_element(next, last));
    used += bins_.bin(bin_of(*next)).bytes;
  }
  for (std::size_t k = 0; k < hot; ++k)
    priority_[k] = bin_of(heat_keys_[k]);
  std::copy(cold_.begin(), cold_.begin() + static_cast<std::ptrdiff_t>(cold),
            priority_.begin() + static_cast<std::ptrdiff_t>(hot));
}

// Admission of whole bins by priority, the last one partially, emitted in address order so the
// memory gets a sorted placement with its page-id intervals: no sort of ranges and no search of
// the page table except inside a partially admitted bin.
Migration MemtierEnv::place_bins(std::span<const double> action) {
  // Without a branch per bin: an agent's 0/1 choices are what a predictor cannot learn.
  order_.resize(config_.bins);  // stays this size: a shrink and regrow per step zero-filled it
  std::size_t requested_bins = 0;
  std::uint64_t requested = 0;
  for (std::size_t i = 0; i < config_.bins; ++i) {
    const std::uint64_t on = action[i] != 0.0 ? 1 : 0;
    order_[requested_bins] = static_cast<std::uint32_t>(i);
    requested_bins += on;
    requested += bins_.bin(i).bytes & (0 - on);  // a mask: g++ made `on ? bytes : 0` a branch
  }
  const std::span<std::uint32_t> requested_order(order_.data(), requested_bins);
  const std::uint64_t capacity = memory_.capacity_bytes();
  std::uint64_t refused = 0;
  if (requested <= capacity) {
    for (std::uint32_t i : requested_order)
      take_[i] = bins_.bin(i).bytes;
  } else {
    priority_.assign(requested_order.begin(), requested_order.end());
    if (config_.admission == Admission::kHottest) order_by_heat();
    std::uint64_t free = capacity;
    for (std::uint32_t i : priority_) {
      const std::uint64_t bytes = bins_.bin(i).bytes;
      take_[i] = std::min(bytes, free);
      free -= take_[i];
      refused += bytes - take_[i];
    }
  }
  placement_.clear();
  placement_ids_.clear();
  // Each bin holds a prefix of its ranges, so its resident share is what it was given.
  std::fill(resident_fraction_.begin(), resident_fraction_.end(), 0.0f);
  for (std::size_t i = 0; i < config_.bins; ++i)
    hbm_cut_[i] = bins_.first_page(i);
  bin_prefixes_ = true;
  // Only the admitted bins are walked, found without a branch per requested bin (whether one
  // was admitted or refused is as random as the agent's choices).
  std::size_t admitted = 0;
  for (std::uint32_t i : requested_order) {
    order_[admitted] = i;
    admitted += take_[i] > 0 ? 1 : 0;
  }
  const auto& pages = pair_->pages;
  for (std::uint32_t i : std::span(order_.data(), admitted)) {
    std::uint64_t left = take_[i];
    take_[i] = 0;
    const Bin& bin = bins_.bin(i);
    if (left == bin.bytes) {  // all but the one partial bin
      resident_fraction_[i] = 1.0f;
      for (std::size_t k = 0; k < bin.ranges.size(); ++k) {  // mostly one: insert() cost more
        placement_.push_back(bin.ranges[k]);
        placement_ids_.push_back(bin.ids[k]);
      }
      hbm_cut_[i] = bin.ids.back().second;
      continue;
    }
    resident_fraction_[i] = fraction_of_bin(i, left);
    for (std::size_t k = 0; k < bin.ranges.size() && left > 0; ++k) {
      const AddressRange& r = bin.ranges[k];
      if (left >= r.hi - r.lo) {
        placement_.push_back(r);
        placement_ids_.push_back(bin.ids[k]);
        left -= r.hi - r.lo;
        continue;
      }
      const std::uint64_t hi = r.lo + left;
      const auto last =
          std::lower_bound(pages.begin() + bin.ids[k].first, pages.begin() + bin.ids[k].second, hi);
      placement_.push_back({r.lo, hi});
      placement_ids_.emplace_back(bin.ids[k].first,
                                  static_cast<std::uint32_t>(last - pages.begin()));
      left = 0;
    }
    hbm_cut_[i] = placement_ids_.back().second;
  }
  return memory_.replace(placement_, placement_ids_, refused);
}

bool MemtierEnv::requests_for_discrete(std::size_t choice) {
  const std::size_t b = config_.bins;
  const auto& resident = memory_.resident();
  requests_.assign(resident.begin(), resident.end());  // keep what is there, first
  if (choice == 0) return false;
  const Bin& bin = bins_.bin((choice - 1) % b);
  const std::uint64_t in_hbm = overlap_bytes(bin.ranges, resident);
  if (choice <= b) {
    requests_.insert(requests_.end(), bin.ranges.begin(), bin.ranges.end());
    return in_hbm == bin.bytes;
  }
  requests_.clear();
  subtract_ranges(resident, bin.ranges, requests_);
  return in_hbm == 0;
}

Env::StepOutcome MemtierEnv::on_step(std::span<const double> action) {
  bool redundant = false;
  Migration m;
  {
    const profiling::Scope scope(kMemoryModelPhase);
    if (config_.action_mode == ActionMode::kBins) {
      m = place_bins(action);
    } else if (swaps_) {
      swaps_->apply(static_cast<std::size_t>(action[0]));
      swaps_->resident().ranges(*pair_, requests_);
      m = memory_.place(requests_);
    } else {
      redundant = requests_for_discrete(static_cast<std::size_t>(action[0]));
      m = memory_.place(requests_);
    }
  }
  if (redundant) ++totals_.redundant_requests;
  StepOutcome outcome = play(m);
  info_buffer()[kRedundant] = redundant ? 1.0 : 0.0;
  return outcome;
}

StepResult MemtierEnv::step_placement(std::span<const AddressRange> ranges) {
  return step_with([&] { return place_ranges(ranges); });
}

Env::StepOutcome MemtierEnv::place_ranges(std::span<const AddressRange> ranges) {
  StepOutcome outcome = play(memory_.place(ranges));
  info_buffer()[kRedundant] = 0.0;
  return outcome;
}

double MemtierEnv::migration_ms_for_bytes(std::uint64_t bytes) const {
  if (config_.migration_ms_per_page) {
    const std::uint64_t whole_pages = bytes / pair_->page_bytes();  // moves are of whole pages
    return static_cast<double>(whole_pages) * *config_.migration_ms_per_page;
  }
  return static_cast<double>(bytes) / (config_.migration_gbps * 1e6);
}

void MemtierEnv::write_swap_features(std::span<float> obs) {
  PageSwaps::Context& c = swaps_->context;
  const double capacity = static_cast<double>(memory_.capacity_bytes());
  c.hit_share =
      last_samples_ > 0 ? static_cast<double>(last_hits_) / static_cast<double>(last_samples_) : 0;
  c.capacity_share = std::min(1.0, capacity / static_cast<double>(bins_.footprint_bytes()));
  c.progress = static_cast<double>(next_ - begin_) / static_cast<double>(end_ - begin_);
  c.last_speedup = last_t_ddr_ms_ > 0.0 ? (last_t_ddr_ms_ - last_t_hbm_ms_) / last_t_ddr_ms_ : 0.0;
  c.last_duration = mean_window_ddr_ms_ > 0.0 ? last_t_ddr_ms_ / (2.0 * mean_window_ddr_ms_) : 0.0;
  c.mean_window_ms = mean_window_ddr_ms_;
  swaps_->features(obs);
}

// The window just played (next_ - 1) joins the scores and the running saving per sample, and
// every swap action is planned for the next window.
void MemtierEnv::plan_swaps() {
  PageSwaps::Context& c = swaps_->context;
  const std::size_t w = next_ - 1;
  swaps_->learn(w);
  played_gap_ms_ += last_t_ddr_ms_ - last_t_hbm_ms_;
  played_samples_ += pair_->window_samples(w);
  c.saving_per_sample_ms =
      played_samples_ > 0 ? played_gap_ms_ / static_cast<double>(played_samples_) : 0.0;
  c.move_ms = migration_ms_for_bytes(pair_->page_bytes());
  swaps_->plan();
}

Env::StepOutcome MemtierEnv::play(const Migration& m) {
  const PreparedPair& pair = *pair_;
  const std::size_t w = next_;
  const std::uint64_t n_hbm = [&] {
    const profiling::Scope scope(kEstimatorPhase);
    return observe_next_window();
  }();
  const std::uint64_t n = last_samples_;
  last_hits_ = n_hbm;
  const auto ddr = static_cast<std::int64_t>(pair.ddr_ticks[w]);
  const auto hbm = static_cast<std::int64_t>(pair.hbm_ticks[w]);
  // Same arithmetic as Estimator::estimate, so an episode's total equals the estimator's.
  std::int64_t exact = 0;
  double partial = 0.0;
  if (n > 0 && n_hbm == n) {
    exact = ddr - hbm;
  } else if (n_hbm > 0) {
    partial = (static_cast<double>(ddr) - static_cast<double>(hbm)) *
              (static_cast<double>(n_hbm) / static_cast<double>(n));
  }
  exact_saving_ += exact;
  partial_saving_ += partial;
  ddr_ticks_ += pair.ddr_ticks[w];
  hbm_ticks_ += pair.hbm_ticks[w];
  last_window_ms_ = (static_cast<double>(ddr - exact) - partial) / pair.ticks_per_ms;
  last_migration_ms_ =
      first_placement_ && config_.free_initial_placement ? 0.0 : migration_ms_for_bytes(m.moved());
  first_placement_ = false;
  totals_.windows += 1;
  totals_.migration_ms += last_migration_ms_;
  totals_.promoted_bytes += m.promoted;
  totals_.demoted_bytes += m.demoted;
  totals_.refused_bytes += m.refused;
  ++next_;
  {
    const profiling::Scope scope(kObservationPhase);
    if (swaps_) plan_swaps();
    write_observation();
  }
  bin_prefixes_ = false;

  std::span<double> info = info_buffer();
  info[kWindow] = static_cast<double>(w);
  info[kTDdr] = last_t_ddr_ms_;
  info[kTHbm] = last_t_hbm_ms_;
  info[kWindowMs] = last_window_ms_;
  info[kMigrationMs] = last_migration_ms_;
  info[kPromoted] = static_cast<double>(m.promoted);
  info[kDemoted] = static_cast<double>(m.demoted);
  info[kRefused] = static_cast<double>(m.refused);
  info[kKept] = static_cast<double>(m.kept);
  info[kUsed] = static_cast<double>(memory_.used_bytes());
  info[kOccupancy] =
      static_cast<double>(memory_.used_bytes()) / static_cast<double>(memory_.capacity_bytes());
  info[kSamples] = static_cast<double>(n);
  info[kSamplesInHbm] = static_cast<double>(n_hbm);

  StepOutcome outcome;
  const double baseline = config_.reward_saving ? last_t_ddr_ms_ : 0.0;
  outcome.reward = (baseline - last_window_ms_ - last_migration_ms_) * reward_scale_;
  outcome.terminated = next_ == pair.window_count();
  outcome.truncated = !outcome.terminated && next_ == end_;
  return outcome;
}

}  // namespace sysgym::memtier
