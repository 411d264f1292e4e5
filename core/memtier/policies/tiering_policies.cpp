// Heuristics in the style of real tiering systems. They learn only from windows already played
// (the samples a PEBS-based system would have seen) and pay for every migration.
#include <algorithm>
#include <array>
#include <bit>

#include "env/config_reader.hpp"
#include "memtier/page_sets.hpp"
#include "memtier/policy.hpp"

namespace sysgym::memtier {
namespace {

// Per-page sample counts and last access of the windows played so far.
class OnlinePolicy : public MemtierPolicy {
 public:
  void start(const MemtierEnv& env, Rng&) override {
    const std::size_t pages = env.pair().pages.size();
    count_.assign(pages, 0);
    last_seen_.assign(pages, 0);
    touched_.clear();
    window_pages_.clear();
    last_window_ms_ = 0.0;
    steps_ = 0;
  }
  void learn(const MemtierEnv& env) override {
    const PreparedPair& pair = env.pair();
    const std::size_t w = env.next_window() - 1;
    ++steps_;
    window_pages_.clear();
    for (std::uint64_t e = pair.entry_offset[w]; e < pair.entry_offset[w + 1]; ++e) {
      const std::uint32_t id = pair.entry_page[e];
      if (last_seen_[id] == 0) touched_.push_back(id);
      count_[id] += pair.entry_count(e);
      last_seen_[id] = steps_;
      window_pages_.push_back(id);
    }
    last_window_ms_ = pair.window_ddr_ms(w);
    after_observe();
  }

 protected:
  virtual void after_observe() {}
  void halve_counts() {
    for (std::uint32_t id : touched_)
      count_[id] /= 2;
  }
  std::vector<std::uint32_t> count_;
  std::vector<std::uint32_t> last_seen_;  // step of the last access, 0 = never
  std::vector<std::uint32_t> touched_;    // pages ever sampled
  std::vector<std::uint32_t> window_pages_;
  double last_window_ms_ = 0.0;
  std::uint32_t steps_ = 0;
};

// The most recently sampled pages (ties: more samples, then lower id), as many as fit: only the
// pages of the window just played change their standing.
class Lru : public OnlinePolicy {
 public:
  void start(const MemtierEnv& env, Rng& rng) override {
    OnlinePolicy::start(env, rng);
    best_.reset(env.pair().pages.size(), page_slots(env));
  }
  void choose(const MemtierEnv& env, Decision& out) override {
    best_.members.ranges(env.pair(), placement(out));
  }

 private:
  void after_observe() override {
    for (std::uint32_t id : window_pages_)
      best_.set(id, (static_cast<std::uint64_t>(last_seen_[id]) << 32) | count_[id]);
  }
  TopK best_;
};

// HeMem: pages become hot at `hot` samples; when a page reaches `cool` samples every count is
// halved (cooling); every `period_ms` of run time hot pages are promoted (most samples first)
// and cold pages stay in HBM only while room remains.
class HememLfu : public OnlinePolicy {
 public:
  HememLfu(std::uint32_t hot, std::uint32_t cool, double period_ms)
      : hot_(hot), cool_(cool), period_ms_(period_ms) {}
  void start(const MemtierEnv& env, Rng& rng) override {
    OnlinePolicy::start(env, rng);
    since_ms_ = period_ms_;  // decide at the first window
  }
  void choose(const MemtierEnv& env, Decision& out) override {
    std::vector<AddressRange>& ranges = placement(out);
    if (since_ms_ < period_ms_) {
      ranges = env.memory().resident();
      return;
    }
    since_ms_ = 0.0;
    std::vector<std::uint32_t> hot;
    for (std::uint32_t id : touched_) {
      if (count_[id] >= hot_) hot.push_back(id);
    }
    hot = top_pages(hot, page_slots(env),
                    [&](std::uint32_t id) { return static_cast<double>(count_[id]); });
    std::vector<AddressRange> hot_ranges;
    ranges_of_pages(env, hot, hot_ranges);
    // Hot pages first; what was resident follows and keeps the room that is left.
    ranges = hot_ranges;
    ranges.insert(ranges.end(), env.memory().resident().begin(), env.memory().resident().end());
  }
  nlohmann::json parameters() const override {
    return {{"hot_threshold", hot_}, {"cool_threshold", cool_}, {"period_ms", period_ms_}};
  }

 private:
  void after_observe() override {
    since_ms_ += last_window_ms_;
    for (std::uint32_t id : window_pages_) {
      if (count_[id] >= cool_) {
        halve_counts();
        break;
      }
    }
  }
  std::uint32_t hot_, cool_;
  double period_ms_;
  double since_ms_ = 0.0;
};

// Memtis: pages are binned by log2 of their sample count; the hot threshold is the lowest bin
// such that every page at or above it fits in HBM, then the next bin fills the rest. Counts
// are halved every `cooling_windows` windows so the histogram follows phase changes. The bins'
// pages are kept as lists, so a decision walks the hot pages and the resident ones, never every
// page sampled; the placement is handed over whole and within capacity.
class MemtisStyle : public OnlinePolicy {
 public:
  explicit MemtisStyle(std::uint32_t cooling_windows) : cooling_windows_(cooling_windows) {}
  void start(const MemtierEnv& env, Rng& rng) override {
    OnlinePolicy::start(env, rng);
    const std::size_t pages = env.pair().pages.size();
    for (auto& list : bin_pages_)
      list.clear();
    bin_.assign(pages, 0);
    slot_.assign(pages, 0);
    held_.reset(pages);
    chosen_.reset(pages);
  }
  void choose(const MemtierEnv& env, Decision& out) override {
    const std::size_t slots = page_slots(env);
    int threshold = kBins;
    std::size_t hot = 0;
    while (threshold > 1 &&
           hot + bin_pages_[static_cast<std::size_t>(threshold - 1)].size() <= slots) {
      --threshold;
      hot += bin_pages_[static_cast<std::size_t>(threshold)].size();
    }
    // Hot pages are promoted; pages already in HBM stay while room remains (warm ones first,
    // ties: lower id); nothing else is moved in.
    chosen_.reset(env.pair().pages.size());
    for (std::size_t b = static_cast<std::size_t>(threshold); b < kBins; ++b) {
      for (std::uint32_t id : bin_pages_[b])
        chosen_.insert(id);
    }
    warm_.clear();
    held_.for_each([&](std::uint32_t id) {
      if (!chosen_.has(id)) warm_.push_back(id);
    });
    const std::size_t room = slots - chosen_.size();
    keep_best(warm_, room, [&](std::uint32_t id) { return count_[id]; });
    for (std::uint32_t id : warm_)
      chosen_.insert(id);
    std::swap(held_, chosen_);
    held_.ranges(env.pair(), placement(out));
  }
  nlohmann::json parameters() const override { return {{"cooling_windows", cooling_windows_}}; }

 private:
  static constexpr std::size_t kBins = 33;  // bin 0: no samples; count 1 -> 1, 2-3 -> 2 ...
  static std::uint8_t bin_of(std::uint32_t count) {
    return static_cast<std::uint8_t>(std::bit_width(count));
  }
  // Moves page `id` to the list of its count's bin (swap-remove from the old one).
  void rebin(std::uint32_t id) {
    const std::uint8_t to = bin_of(count_[id]);
    const std::uint8_t from = bin_[id];
    if (to == from) return;
    if (from != 0) {
      auto& list = bin_pages_[from];
      list[slot_[id]] = list.back();
      slot_[list.back()] = slot_[id];
      list.pop_back();
    }
    if (to != 0) {
      slot_[id] = static_cast<std::uint32_t>(bin_pages_[to].size());
      bin_pages_[to].push_back(id);
    }
    bin_[id] = to;
  }
  void after_observe() override {
    for (std::uint32_t id : window_pages_)
      rebin(id);
    if (steps_ % cooling_windows_ == 0) {
      halve_counts();
      for (std::uint32_t id : touched_)
        rebin(id);
    }
  }
  std::uint32_t cooling_windows_;
  std::array<std::vector<std::uint32_t>, kBins> bin_pages_;
  std::vector<std::uint8_t> bin_;    // bin of each page's count
  std::vector<std::uint32_t> slot_;  // index in its bin's list
  PageBits held_, chosen_;           // the placement in force, the next one
  std::vector<std::uint32_t> warm_;
};

// AutoNUMA memory tiering: a page sampled while in DDR takes a hint fault and is promoted,
// at most `rate_limit_mbps` MB per second of run time; when HBM is full the least recently
// sampled resident pages are demoted to make room. Resident pages are kept in a list by last
// access (oldest first; within one window, higher ids first), so a decision touches the window's
// pages and the ones it demotes.
class AutoNuma : public OnlinePolicy {
 public:
  explicit AutoNuma(double rate_limit_mbps) : rate_limit_mbps_(rate_limit_mbps) {}
  void start(const MemtierEnv& env, Rng& rng) override {
    OnlinePolicy::start(env, rng);
    const std::size_t pages = env.pair().pages.size();
    held_.reset(pages);
    next_.assign(pages + 1, kEnd);
    prev_.assign(pages + 1, kEnd);
    prev_[pages] = static_cast<std::uint32_t>(pages);  // node `pages`: the list's sentinel
    next_[pages] = static_cast<std::uint32_t>(pages);
  }
  void choose(const MemtierEnv& env, Decision& out) override {
    const PreparedPair& pair = env.pair();
    const auto budget = static_cast<std::size_t>(rate_limit_mbps_ * 1e3 * last_window_ms_ /
                                                 static_cast<double>(pair.page_bytes()));
    faults_.clear();
    group_.clear();
    for (std::uint32_t id : window_pages_) {
      if (!held_.has(id)) {
        faults_.push_back(id);
      } else {
        unlink(id);  // accessed now: rejoins at the fresh end below
        group_.push_back(id);
      }
    }
    const std::size_t slots = page_slots(env);
    keep_best(faults_, std::min(budget, slots), [&](std::uint32_t id) { return count_[id]; });
    const std::size_t room = slots > faults_.size() ? slots - faults_.size() : 0;
    const auto sentinel = static_cast<std::uint32_t>(prev_.size() - 1);
    while (held_.size() > room && next_[sentinel] != sentinel) {
      const std::uint32_t oldest = next_[sentinel];
      unlink(oldest);
      held_.erase(oldest);
    }
    // Still too many: the window's own resident pages go, higher ids first.
    while (held_.size() > room) {
      held_.erase(group_.back());
      group_.pop_back();
    }
    group_.insert(group_.end(), faults_.begin(), faults_.end());
    std::sort(group_.begin(), group_.end(), std::greater<>());
    for (std::uint32_t id : group_) {
      append(id);
      held_.insert(id);
    }
    held_.ranges(pair, placement(out));
  }
  nlohmann::json parameters() const override { return {{"rate_limit_mbps", rate_limit_mbps_}}; }

 private:
  static constexpr std::uint32_t kEnd = 0xffffffffU;
  void unlink(std::uint32_t id) {
    next_[prev_[id]] = next_[id];
    prev_[next_[id]] = prev_[id];
  }
  void append(std::uint32_t id) {
    const auto sentinel = static_cast<std::uint32_t>(prev_.size() - 1);
    prev_[id] = prev_[sentinel];
    next_[id] = sentinel;
    next_[prev_[sentinel]] = id;
    prev_[sentinel] = id;
  }
  double rate_limit_mbps_;
  PageBits held_;                           // the placement in force
  std::vector<std::uint32_t> next_, prev_;  // the resident pages by last access
  std::vector<std::uint32_t> faults_, group_;
};

}  // namespace

void register_tiering_policies(PolicyRegistry& registry) {
  add_memtier_policy(
      registry,
      {"lru",
       "Least recently used: the most recently sampled pages (ties: more samples), as many as "
       "fit; promotes on access like a hardware-managed cache would.",
       false, [](const nlohmann::json& config) -> std::unique_ptr<Policy> {
         ConfigReader(config, "lru policy config").finish();
         return std::make_unique<Lru>();
       }});
  add_memtier_policy(
      registry,
      {"lfu-hemem",
       "HeMem (SOSP 2021): LFU over PEBS samples; hot at `hot_threshold` (8) samples, all counts "
       "halved when a page reaches `cool_threshold` (18); hot pages promoted every `period_ms` "
       "(10).",
       false, [](const nlohmann::json& config) -> std::unique_ptr<Policy> {
         ConfigReader r(config, "lfu-hemem policy config");
         const auto hot = static_cast<std::uint32_t>(r.integer("hot_threshold", 8, 1, 1 << 30));
         const auto cool = static_cast<std::uint32_t>(r.integer("cool_threshold", 18, 2, 1 << 30));
         const double period = r.number("period_ms", 10.0, 0.0, 1e9);
         r.finish();
         return std::make_unique<HememLfu>(hot, cool, period);
       }});
  add_memtier_policy(
      registry,
      {"memtis",
       "Memtis (SOSP 2023) style: log2 histogram of page sample counts, hot threshold fitted so "
       "the "
       "hot set fits HBM; hot pages promoted, resident warm pages kept while room remains; counts "
       "halved every `cooling_windows` (32).",
       false, [](const nlohmann::json& config) -> std::unique_ptr<Policy> {
         ConfigReader r(config, "memtis policy config");
         const auto cooling =
             static_cast<std::uint32_t>(r.integer("cooling_windows", 32, 1, 1 << 30));
         r.finish();
         return std::make_unique<MemtisStyle>(cooling);
       }});
  add_memtier_policy(
      registry,
      {"autonuma",
       "Linux AutoNUMA memory tiering style: pages sampled in DDR are promoted on their "
       "hint fault, "
       "at most `rate_limit_mbps` (1024) MB/s; least recently used pages are demoted when "
       "HBM is full.",
       false, [](const nlohmann::json& config) -> std::unique_ptr<Policy> {
         ConfigReader r(config, "autonuma policy config");
         const double rate = r.number("rate_limit_mbps", 1024.0, 0.0, 1e9);
         r.finish();
         return std::make_unique<AutoNuma>(rate);
       }});
}

}  // namespace sysgym::memtier
