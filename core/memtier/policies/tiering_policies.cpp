// Heuristics in the style of real tiering systems. They learn only from windows already played
// (the samples a PEBS-based system would have seen) and pay for every migration.
#include <algorithm>
#include <array>

#include "env/config_reader.hpp"
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
    last_window_ms_ = static_cast<double>(pair.ddr_ticks[w]) / pair.ticks_per_ms;
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

// The most recently sampled pages (ties: more samples), as many as fit.
class Lru : public OnlinePolicy {
 public:
  void choose(const MemtierEnv& env, Decision& out) override {
    std::vector<AddressRange>& ranges = placement(out);
    const auto best = top_pages(touched_, page_slots(env), [&](std::uint32_t id) {
      return (static_cast<std::uint64_t>(last_seen_[id]) << 32) | count_[id];
    });
    ranges_of_pages(env, best, ranges);
  }
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
// are halved every `cooling_windows` windows so the histogram follows phase changes.
class MemtisStyle : public OnlinePolicy {
 public:
  explicit MemtisStyle(std::uint32_t cooling_windows) : cooling_windows_(cooling_windows) {}
  void choose(const MemtierEnv& env, Decision& out) override {
    std::vector<AddressRange>& ranges = placement(out);
    const std::size_t slots = page_slots(env);
    std::array<std::size_t, 33> pages_in_bin{};
    for (std::uint32_t id : touched_) {
      if (count_[id] > 0) ++pages_in_bin[bin_of(count_[id])];
    }
    int threshold = 33;
    std::size_t hot = 0;
    while (threshold > 1 && hot + pages_in_bin[static_cast<std::size_t>(threshold - 1)] <= slots) {
      --threshold;
      hot += pages_in_bin[static_cast<std::size_t>(threshold)];
    }
    // Hot pages are promoted; pages already in HBM stay while room remains (warm ones
    // first); nothing else is moved in.
    std::vector<std::uint32_t> hot_pages;
    for (std::uint32_t id : touched_) {
      if (count_[id] > 0 && bin_of(count_[id]) >= threshold) hot_pages.push_back(id);
    }
    std::vector<AddressRange> hot_ranges;
    ranges_of_pages(env, hot_pages, hot_ranges);
    std::vector<std::uint32_t> resident = resident_pages(env);
    resident = top_pages(resident, resident.size(), [&](std::uint32_t id) { return count_[id]; });
    std::vector<AddressRange> resident_ranges;
    ranges_of_pages(env, resident, resident_ranges);
    ranges = hot_ranges;
    // Keep resident pages in decreasing count: one range per page preserves that priority.
    for (std::uint32_t id : resident) {
      ranges.push_back({env.pair().pages[id], env.pair().pages[id] + env.pair().page_bytes()});
    }
  }
  nlohmann::json parameters() const override { return {{"cooling_windows", cooling_windows_}}; }

 private:
  static int bin_of(std::uint32_t count) {
    int bin = 0;
    while ((count >> (bin + 1)) != 0)
      ++bin;
    return bin + 1;  // count 1 -> bin 1, 2-3 -> 2, 4-7 -> 3 ...
  }
  void after_observe() override {
    if (steps_ % cooling_windows_ == 0) halve_counts();
  }
  std::uint32_t cooling_windows_;
};

// AutoNUMA memory tiering: a page sampled while in DDR takes a hint fault and is promoted,
// at most `rate_limit_mbps` MB per second of run time; when HBM is full the least recently
// sampled resident pages are demoted to make room.
class AutoNuma : public OnlinePolicy {
 public:
  explicit AutoNuma(double rate_limit_mbps) : rate_limit_mbps_(rate_limit_mbps) {}
  void choose(const MemtierEnv& env, Decision& out) override {
    std::vector<AddressRange>& ranges = placement(out);
    const PreparedPair& pair = env.pair();
    const auto budget = static_cast<std::size_t>(rate_limit_mbps_ * 1e3 * last_window_ms_ /
                                                 static_cast<double>(pair.page_bytes()));
    std::vector<std::uint32_t> faults;
    for (std::uint32_t id : window_pages_) {
      if (!env.memory().page_in_hbm(id)) faults.push_back(id);
    }
    faults = top_pages(faults, budget,
                       [&](std::uint32_t id) { return static_cast<double>(count_[id]); });
    std::vector<std::uint32_t> keep = resident_pages(env);
    const std::size_t slots = page_slots(env);
    const std::size_t room_for_resident = slots > faults.size() ? slots - faults.size() : 0;
    keep = top_pages(keep, room_for_resident,
                     [&](std::uint32_t id) { return static_cast<double>(last_seen_[id]); });
    faults.resize(std::min(faults.size(), slots));
    keep.insert(keep.end(), faults.begin(), faults.end());
    ranges_of_pages(env, keep, ranges);
  }
  nlohmann::json parameters() const override { return {{"rate_limit_mbps", rate_limit_mbps_}}; }

 private:
  double rate_limit_mbps_;
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
