// Oracles that look at the windows to come: a per-window lower bound, the exact dynamic optimum
// and a lookahead heuristic.
#include <algorithm>

#include "env/config_reader.hpp"
#include "memtier/page_sets.hpp"
#include "memtier/placement_schedule.hpp"
#include "memtier/policy.hpp"

namespace sysgym::memtier {
namespace {

// Every window, the pages that window touches most, as many as fit (none when HBM is slower
// for it), ignoring migration cost. No placement holds more of a window's samples, so its
// memory time is a lower bound on every policy's; with migration it is no real policy.
class WindowOracle : public MemtierPolicy {
 public:
  void start(const MemtierEnv&, Rng&) override {}
  void choose(const MemtierEnv& env, Decision& out) override {
    const PreparedPair& pair = env.pair();
    const std::size_t w = env.next_window();
    std::vector<AddressRange>& ranges = placement(out);
    ranges.clear();
    if (pair.saving_per_sample_ms(w) <= 0.0) return;
    std::vector<std::uint32_t> pages;
    pages.reserve(pair.entry_offset[w + 1] - pair.entry_offset[w]);
    for (std::uint64_t e = pair.entry_offset[w]; e < pair.entry_offset[w + 1]; ++e)
      pages.push_back(static_cast<std::uint32_t>(e));
    const std::vector<std::uint32_t> best = top_pages(pages, page_slots(env), [&](std::uint32_t e) {
      return static_cast<double>(pair.entry_count(e));
    });
    std::vector<std::uint32_t> ids;
    ids.reserve(best.size());
    for (std::uint32_t e : best)
      ids.push_back(pair.entry_page[e]);
    ranges_of_pages(env, ids, ranges);
  }
};

// The optimal schedule with migration cost (placement_schedule.hpp), solved at reset for the
// episode's windows and capacity and played window by window: no policy's total time is lower.
class DynamicOracle : public MemtierPolicy {
 public:
  void start(const MemtierEnv& env, Rng&) override {
    ScheduleProblem problem;
    problem.begin = env.episode_begin();
    problem.end = env.episode_end();
    problem.slots = page_slots(env);
    problem.move_ms = env.migration_ms_for_bytes(env.pair().page_bytes());
    problem.free_first = env.settings().free_initial_placement;
    schedule_ = optimal_schedule(env.pair(), problem);
    ends_ = schedule_.holds;
    std::sort(ends_.begin(), ends_.end(),
              [](const Hold& a, const Hold& b) { return a.last < b.last; });
    next_start_ = next_end_ = 0;
    held_.reset(env.pair().pages.size());
    ranges_.clear();
  }
  void choose(const MemtierEnv& env, Decision& out) override {
    const auto w = static_cast<std::uint32_t>(env.next_window());
    bool changed = false;
    while (next_end_ < ends_.size() && ends_[next_end_].last < w) {
      held_.erase(ends_[next_end_++].page);
      changed = true;
    }
    for (; next_start_ < schedule_.holds.size() && schedule_.holds[next_start_].first <= w;
         ++next_start_) {
      held_.insert(schedule_.holds[next_start_].page);
      changed = true;
    }
    if (changed) held_.ranges(env.pair(), ranges_);
    placement(out) = ranges_;
  }

 private:
  PlacementSchedule schedule_;
  std::vector<Hold> ends_;  // the holds by last window
  std::size_t next_start_ = 0, next_end_ = 0;
  PageBits held_;
  std::vector<AddressRange> ranges_;
};

// A dynamic placement that weighs migration: before window w, each page scores its saving over
// the next `lookahead` windows; a page not yet in HBM must earn more than its migration cost,
// a resident page stays while its score is positive. The best pages that fit are placed.
// A heuristic that reads the future, not an optimum: dynamic-oracle is the exact one.
class Lookahead : public MemtierPolicy {
 public:
  explicit Lookahead(std::size_t lookahead) : lookahead_(lookahead) {}
  void start(const MemtierEnv& env, Rng&) override {
    score_.assign(env.pair().pages.size(), 0.0);
    seen_.assign(env.pair().pages.size(), 0);
  }
  void choose(const MemtierEnv& env, Decision& out) override {
    const PreparedPair& pair = env.pair();
    const std::size_t w = env.next_window();
    const std::size_t last = std::min(env.episode_end(), w + lookahead_);
    touched_.clear();
    for (std::size_t v = w; v < last; ++v) {
      const double gain = pair.saving_per_sample_ms(v);
      for (std::uint64_t e = pair.entry_offset[v]; e < pair.entry_offset[v + 1]; ++e) {
        const std::uint32_t id = pair.entry_page[e];
        if (seen_[id] == 0) {
          seen_[id] = 1;
          touched_.push_back(id);
        }
        score_[id] += gain * pair.entry_count(e);
      }
    }
    const double move_in = env.migration_ms_for_bytes(pair.page_bytes());
    std::vector<std::uint32_t> candidates;
    for (std::uint32_t id : touched_) {
      if (!env.memory().page_in_hbm(id)) score_[id] -= move_in;
      if (score_[id] > 0.0) candidates.push_back(id);
    }
    // Resident pages without upcoming accesses keep a zero score: kept while room remains.
    for (std::uint32_t id : resident_pages(env)) {
      if (seen_[id] == 0) candidates.push_back(id);
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    const auto best =
        top_pages(candidates, page_slots(env), [&](std::uint32_t id) { return score_[id]; });
    std::vector<AddressRange>& ranges = placement(out);
    ranges_of_pages(env, best, ranges);
    for (std::uint32_t id : touched_) {
      score_[id] = 0.0;
      seen_[id] = 0;
    }
  }
  nlohmann::json parameters() const override { return {{"lookahead", lookahead_}}; }

 private:
  std::size_t lookahead_;
  std::vector<double> score_;
  std::vector<std::uint8_t> seen_;  // touched in the lookahead
  std::vector<std::uint32_t> touched_;
};

}  // namespace

void register_oracle_policies(PolicyRegistry& registry) {
  add_memtier_policy(
      registry,
      {"window-oracle",
       "Per window, the pages that window touches most, as many as fit, ignoring migration "
       "cost: its memory time is a lower bound on every policy's.",
       true, [](const nlohmann::json& config) -> std::unique_ptr<Policy> {
         ConfigReader(config, "window-oracle policy config").finish();
         return std::make_unique<WindowOracle>();
       }});
  add_memtier_policy(
      registry,
      {"dynamic-oracle",
       "The optimal placement schedule with migration cost and the capacity limit, page by page "
       "(a min-cost flow over pages x windows): no policy's total time is lower.",
       true, [](const nlohmann::json& config) -> std::unique_ptr<Policy> {
         ConfigReader(config, "dynamic-oracle policy config").finish();
         return std::make_unique<DynamicOracle>();
       }});
  add_memtier_policy(
      registry, {"lookahead",
                 "Knows the next `lookahead` windows (default 8): places the pages whose upcoming "
                 "saving exceeds their migration cost; a heuristic that reads the future, beaten "
                 "by dynamic-oracle.",
                 true, [](const nlohmann::json& config) -> std::unique_ptr<Policy> {
                   ConfigReader reader(config, "lookahead policy config");
                   const auto lookahead =
                       static_cast<std::size_t>(reader.integer("lookahead", 8, 1, 1 << 20));
                   reader.finish();
                   return std::make_unique<Lookahead>(lookahead);
                 }});
}

}  // namespace sysgym::memtier
