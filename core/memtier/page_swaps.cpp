#include "memtier/page_swaps.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sysgym::memtier {
namespace {

constexpr std::size_t kScalarFeatures = 9;
constexpr std::size_t kLastSpeedup = 6;  // the one scalar that may be negative
constexpr std::size_t kFeaturesPerAction = 4;

std::size_t budget_pages(std::size_t slots, std::size_t level) {
  const auto pages = static_cast<std::size_t>(static_cast<double>(slots) * kSwapBudgets[level]);
  return std::max<std::size_t>(1, pages);
}

double share(double part, double whole) {
  return whole > 0 ? part / whole : 0.0;
}

// Samples a page must gain to pay for one move, at the saving per sample seen so far; infinite
// when HBM has not helped yet.
double samples_per_move(const PageSwaps::Context& c) {
  return c.saving_per_sample_ms > 0 ? c.move_ms / c.saving_per_sample_ms
                                    : std::numeric_limits<double>::infinity();
}

// Sorts the first k of `v` by `less`, a strict total order, as std::partial_sort would. A
// selection and a sort of k: partial_sort's heap cost O(n log k), and with k up to half the
// capacity in pages it was most of a swap step on large traces.
template <typename Less>
void sort_first(std::vector<std::uint32_t>& v, std::size_t k, Less less) {
  if (k == 0) return;
  const auto end = v.begin() + static_cast<std::ptrdiff_t>(k);
  std::nth_element(v.begin(), end, v.end(), less);
  std::sort(v.begin(), end, less);
}

// Page a ranks before page b under `score`: more samples, then the lower id (a total order, so
// native and wasm rank alike).
auto better_under(const std::vector<std::uint32_t>& score) {
  return [&score](std::uint32_t a, std::uint32_t b) {
    return score[a] != score[b] ? score[a] > score[b] : a < b;
  };
}

constexpr double kNever = std::numeric_limits<double>::infinity();

float clamp_unit(double x) {
  return static_cast<float>(std::clamp(x, -1.0, 1.0));
}

}  // namespace

PageSwaps::PageSwaps(const PreparedPair& pair) : pair_(pair) {}

void PageSwaps::start(std::size_t begin, std::size_t slots) {
  const std::size_t pages = pair_.pages.size();
  slots_ = slots;
  played_ = 0;
  for (Memory& m : memories_) {
    m.score.assign(pages, 0);
    m.best_samples = m.score_total = 0;
  }
  last_count_.assign(pages, 0);
  was_scored_.assign(pages, 0);
  last_pages_.clear();
  scored_.clear();
  resident_.reset(pages);
  for (std::uint32_t id : first_touched_pages(pair_, begin, slots))
    resident_.insert(id);
  last_samples_ = 0;
  hemem_since_ms_ = kHememPeriodMs;  // HeMem decides at the first window
}

void PageSwaps::learn(std::size_t w) {
  for (std::uint32_t id : last_pages_)
    last_count_[id] = 0;
  last_pages_.clear();
  for (std::uint64_t e = pair_.entry_offset[w]; e < pair_.entry_offset[w + 1]; ++e) {
    const std::uint32_t id = pair_.entry_page[e];
    const std::uint32_t count = pair_.entry_count(e);
    last_pages_.push_back(id);
    last_count_[id] = count;
    for (Memory& m : memories_)
      m.score[id] += count;
    if (was_scored_[id] == 0) {
      was_scored_[id] = 1;
      scored_.push_back(id);
    }
  }
  last_samples_ = pair_.window_samples(w);
  ++played_;
  for (std::size_t k = 0; k < kScoreHalvings.size(); ++k) {
    const std::uint32_t halving = kScoreHalvings[k];
    if (halving == 0 || played_ % halving != 0) continue;
    halve(memories_[k]);
  }
  hemem_since_ms_ += pair_.window_ddr_ms(w);
  Memory& hemem = memories_[kHememMemory];
  if (std::any_of(last_pages_.begin(), last_pages_.end(),
                  [&](std::uint32_t id) { return hemem.score[id] >= kHememCool; }))
    halve(hemem);
}

void PageSwaps::halve(Memory& m) const {
  for (std::uint32_t id : scored_)
    m.score[id] /= 2;
}

// Ranks one memory's candidates (best first) and residents (worst first) as far as any plan can
// reach. A page scoring no more than `least`, the least any of the memory's plans asks of a
// promotion, is left out of the ranking: the plans are the same, and a step no longer sorts
// every page ever sampled.
void PageSwaps::rank(Memory& m, double least) {
  const std::vector<std::uint32_t>& score = m.score;
  const auto better = better_under(score);
  m.candidates.clear();
  m.score_total = 0;
  for (std::uint32_t id : scored_) {
    m.score_total += score[id];
    if (static_cast<double>(score[id]) > least && !resident_.has(id)) m.candidates.push_back(id);
  }
  const std::size_t most = budget_pages(slots_, kSwapBudgets.size() - 1);
  sort_first(m.candidates, std::min(most, m.candidates.size()), better);
  // A plan demotes at most as many residents as it promotes candidates.
  m.residents = resident_ids_;
  const std::size_t demotable = std::min({most, m.candidates.size(), m.residents.size()});
  sort_first(m.residents, demotable,
             [&](std::uint32_t a, std::uint32_t b) { return better(b, a); });
}

// What a fresh LFU placement under `m` would have held last window (an observed feature).
void PageSwaps::count_best(Memory& m) {
  ranked_ = scored_;
  const std::size_t top = std::min(slots_, ranked_.size());
  std::nth_element(ranked_.begin(), ranked_.begin() + static_cast<std::ptrdiff_t>(top),
                   ranked_.end(), better_under(m.score));
  m.best_samples = 0;
  for (std::size_t i = 0; i < top; ++i)
    m.best_samples += last_count_[ranked_[i]];
}

void PageSwaps::plan() {
  resident_ids_.clear();
  resident_.for_each([&](std::uint32_t id) { resident_ids_.push_back(id); });
  // Samples a move must win back, from the saving per sample of the windows played so far: a
  // promotion into free room needs a score `margin` x that above nothing, a swap twice that
  // above the page it replaces.
  const double price = samples_per_move(context);
  for (std::size_t k = 0; k < kScoreHalvings.size(); ++k) {
    rank(memories_[k], kSwapMargins[0] * price);
    count_best(memories_[k]);
  }
  const double hot = kHememHot - 0.5;
  rank(memories_[kHememMemory], hot);
  plans_[0] = Plan();
  std::size_t action = 1;
  for (std::size_t k = 0; k < kScoreHalvings.size(); ++k) {
    for (std::size_t level = 0; level < kSwapBudgets.size(); ++level) {
      for (double margin : kSwapMargins) {
        const double need = margin * price;
        plans_[action++] = plan_swaps(k, budget_pages(slots_, level), need, 2 * need, kNever);
      }
    }
  }
  plans_[kHememAction] =
      hemem_since_ms_ < kHememPeriodMs
          ? Plan{.memory = kHememMemory}
          : plan_swaps(kHememMemory, budget_pages(slots_, kSwapBudgets.size() - 1), hot, 0.0, hot);
}

PageSwaps::Plan PageSwaps::plan_swaps(std::size_t memory, std::size_t budget, double floor,
                                      double lead, double evict_below) const {
  Plan p;
  p.memory = memory;
  const Memory& mem = memories_[p.memory];
  std::size_t free = slots_ - std::min(slots_, resident_.size());
  while (p.promote < budget && p.promote < mem.candidates.size()) {
    const std::uint32_t c = mem.candidates[p.promote];
    const auto score = static_cast<double>(mem.score[c]);
    if (score <= floor) break;
    if (free > 0) {
      --free;
    } else {
      if (p.demote == mem.residents.size()) break;
      const std::uint32_t r = mem.residents[p.demote];
      const auto resident = static_cast<double>(mem.score[r]);
      if (score - resident <= lead || resident >= evict_below) break;
      p.window_gain -= last_count_[r];
      p.score_gain -= mem.score[r];
      ++p.demote;
    }
    p.window_gain += last_count_[c];
    p.score_gain += mem.score[c];
    ++p.promote;
  }
  return p;
}

void PageSwaps::apply(std::size_t a) {
  const Plan& p = plans_[a];
  if (a == kHememAction && hemem_since_ms_ >= kHememPeriodMs) hemem_since_ms_ = 0;
  const Memory& m = memories_[p.memory];
  for (std::size_t i = 0; i < p.demote; ++i)
    resident_.erase(m.residents[i]);
  for (std::size_t i = 0; i < p.promote; ++i)
    resident_.insert(m.candidates[i]);
}

std::size_t PageSwaps::feature_count() {
  return kScalarFeatures + kFeaturesPerAction * (kSwapActions - 1);
}

std::vector<std::string> PageSwaps::observation_names() {
  std::vector<std::string> names = {"hit_share",     "best_share",     "best_share_long",
                                    "free_capacity", "capacity_share", "progress",
                                    "last_speedup",  "last_duration",  "move_cost"};
  for (std::size_t a = 1; a < kSwapActions; ++a) {
    for (const char* name : {"window_value", "window_gain", "score_gain", "moved"}) {
      std::string full = name;
      full += '[';
      full += std::to_string(a);
      full += ']';
      names.push_back(std::move(full));
    }
  }
  return names;
}

std::vector<float> PageSwaps::feature_lows() {
  std::vector<float> lows(feature_count(), 0.0f);
  lows[kLastSpeedup] = -1.0f;
  for (std::size_t a = 0; a + 1 < kSwapActions; ++a) {
    for (std::size_t k = 0; k < 3; ++k)  // window_value, window_gain, score_gain
      lows[kScalarFeatures + kFeaturesPerAction * a + k] = -1.0f;
  }
  return lows;
}

void PageSwaps::features(std::span<float> out) const {
  const Context& c = context;
  const auto slots = static_cast<double>(slots_);
  const auto samples = static_cast<double>(last_samples_);
  out[0] = clamp_unit(c.hit_share);
  out[1] = clamp_unit(share(static_cast<double>(memories_[0].best_samples), samples));
  out[2] = clamp_unit(share(static_cast<double>(memories_[1].best_samples), samples));
  out[3] = clamp_unit(share(slots - static_cast<double>(resident_.size()), slots));
  out[4] = clamp_unit(c.capacity_share);
  out[5] = clamp_unit(c.progress);
  out[kLastSpeedup] = clamp_unit(c.last_speedup);
  out[7] = clamp_unit(c.last_duration);
  // Samples a page must gain to pay for its move, squashed to [0, 1): 1 when HBM did not help.
  const double pay = samples_per_move(c);
  out[8] = std::isinf(pay) ? 1.0f : static_cast<float>(pay / (1.0 + pay));
  for (std::size_t a = 1; a < kSwapActions; ++a) {
    const Plan& p = plans_[a];
    const auto moved = static_cast<double>(p.promote + p.demote);
    const double value =
        static_cast<double>(p.window_gain) * c.saving_per_sample_ms - moved * c.move_ms;
    const auto total = static_cast<double>(memories_[p.memory].score_total);
    float* f = out.data() + kScalarFeatures + kFeaturesPerAction * (a - 1);
    f[0] = clamp_unit(share(value, c.mean_window_ms));
    f[1] = clamp_unit(share(static_cast<double>(p.window_gain), samples));
    f[2] = clamp_unit(share(static_cast<double>(p.score_gain), total));
    f[3] = clamp_unit(share(moved, 2 * slots));
  }
}

}  // namespace sysgym::memtier
