#include "memtier/page_swaps.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sysgym::memtier {
namespace {

constexpr std::size_t kScalarFeatures = 8;
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

float clamp_unit(double x) {
  return static_cast<float>(std::clamp(x, -1.0, 1.0));
}

}  // namespace

PageSwaps::PageSwaps(const PreparedPair& pair) : pair_(pair) {}

void PageSwaps::start(std::size_t begin, std::size_t slots) {
  const std::size_t pages = pair_.pages.size();
  slots_ = slots;
  played_ = 0;
  score_.assign(pages, 0);
  last_count_.assign(pages, 0);
  was_scored_.assign(pages, 0);
  last_pages_.clear();
  scored_.clear();
  resident_.reset(pages);
  for (std::size_t w = begin; w < pair_.window_count() && resident_.size() < slots; ++w) {
    for (std::uint64_t e = pair_.entry_offset[w];
         e < pair_.entry_offset[w + 1] && resident_.size() < slots; ++e)
      resident_.insert(pair_.entry_page[e]);
  }
  last_samples_ = best_samples_ = score_total_ = 0;
}

void PageSwaps::learn(std::size_t w) {
  for (std::uint32_t id : last_pages_)
    last_count_[id] = 0;
  last_pages_.clear();
  for (std::uint64_t e = pair_.entry_offset[w]; e < pair_.entry_offset[w + 1]; ++e) {
    const std::uint32_t id = pair_.entry_page[e];
    last_pages_.push_back(id);
    last_count_[id] = pair_.entry_count(e);
    score_[id] += pair_.entry_count(e);
    if (was_scored_[id] == 0) {
      was_scored_[id] = 1;
      scored_.push_back(id);
    }
  }
  last_samples_ = pair_.window_samples(w);
  if (++played_ % kScoreHalvingWindows == 0) {
    for (std::uint32_t id : scored_)
      score_[id] /= 2;
  }
}

void PageSwaps::plan() {
  auto better = [&](std::uint32_t a, std::uint32_t b) {
    return score_[a] != score_[b] ? score_[a] > score_[b] : a < b;
  };
  candidates_.clear();
  score_total_ = 0;
  for (std::uint32_t id : scored_) {
    score_total_ += score_[id];
    if (score_[id] > 0 && !resident_.has(id)) candidates_.push_back(id);
  }
  residents_.clear();
  resident_.for_each([&](std::uint32_t id) { residents_.push_back(id); });
  const std::size_t most = budget_pages(slots_, kSwapBudgets.size() - 1);
  const auto head = [&](std::vector<std::uint32_t>& v) {
    return v.begin() + static_cast<std::ptrdiff_t>(std::min(most, v.size()));
  };
  std::partial_sort(candidates_.begin(), head(candidates_), candidates_.end(), better);
  std::partial_sort(residents_.begin(), head(residents_), residents_.end(),
                    [&](std::uint32_t a, std::uint32_t b) { return better(b, a); });

  // The last window's samples on the best-scored pages that fit: what a fresh LFU placement
  // would have held.
  std::vector<std::uint32_t> ranked = scored_;
  const std::size_t top = std::min(slots_, ranked.size());
  std::nth_element(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(top), ranked.end(),
                   better);
  best_samples_ = 0;
  for (std::size_t i = 0; i < top; ++i)
    best_samples_ += last_count_[ranked[i]];

  // Samples a move must win back, from the saving per sample of the windows played so far: a
  // promotion into free room needs a score `margin` x that above nothing, a swap twice that
  // above the page it replaces.
  const double pay = samples_per_move(context);
  plans_[0] = Plan();
  for (std::size_t level = 0; level < kSwapBudgets.size(); ++level) {
    for (std::size_t m = 0; m < kSwapMargins.size(); ++m) {
      Plan p;
      const double need = kSwapMargins[m] * pay;
      const std::size_t budget = budget_pages(slots_, level);
      std::size_t free = slots_ - std::min(slots_, resident_.size());
      while (p.promote < budget && p.promote < candidates_.size()) {
        const std::uint32_t c = candidates_[p.promote];
        if (free > 0) {
          if (static_cast<double>(score_[c]) <= need) break;
          --free;
        } else {
          if (p.demote == residents_.size()) break;
          const std::uint32_t r = residents_[p.demote];
          if (static_cast<double>(score_[c]) - static_cast<double>(score_[r]) <= 2 * need) break;
          p.window_gain -= last_count_[r];
          p.score_gain -= score_[r];
          ++p.demote;
        }
        p.window_gain += last_count_[c];
        p.score_gain += score_[c];
        ++p.promote;
      }
      plans_[1 + kSwapMargins.size() * level + m] = p;
    }
  }
}

void PageSwaps::apply(std::size_t a) {
  const Plan& p = plans_[a];
  for (std::size_t i = 0; i < p.demote; ++i)
    resident_.erase(residents_[i]);
  for (std::size_t i = 0; i < p.promote; ++i)
    resident_.insert(candidates_[i]);
}

std::size_t PageSwaps::feature_count() {
  return kScalarFeatures + kFeaturesPerAction * (kSwapActions - 1);
}

std::vector<std::string> PageSwaps::observation_names() {
  std::vector<std::string> names = {"hit_share", "best_share",   "free_capacity", "capacity_share",
                                    "progress",  "last_speedup", "last_duration", "move_cost"};
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
  lows[5] = -1.0f;  // last_speedup
  for (std::size_t a = 0; a + 1 < kSwapActions; ++a) {
    for (std::size_t k = 0; k < 3; ++k)
      lows[kScalarFeatures + kFeaturesPerAction * a + k] = -1.0f;
  }
  return lows;
}

void PageSwaps::features(std::span<float> out) const {
  const Context& c = context;
  const auto slots = static_cast<double>(slots_);
  const auto samples = static_cast<double>(last_samples_);
  out[0] = clamp_unit(c.hit_share);
  out[1] = clamp_unit(share(static_cast<double>(best_samples_), samples));
  out[2] = clamp_unit(share(slots - static_cast<double>(resident_.size()), slots));
  out[3] = clamp_unit(c.capacity_share);
  out[4] = clamp_unit(c.progress);
  out[5] = clamp_unit(c.last_speedup);
  out[6] = clamp_unit(c.last_duration);
  // Samples a page must gain to pay for its move, squashed to [0, 1): 1 when HBM did not help.
  const double pay = samples_per_move(c);
  out[7] = std::isinf(pay) ? 1.0f : static_cast<float>(pay / (1.0 + pay));
  for (std::size_t a = 1; a < kSwapActions; ++a) {
    const Plan& p = plans_[a];
    const auto moved = static_cast<double>(p.promote + p.demote);
    const double value =
        static_cast<double>(p.window_gain) * c.saving_per_sample_ms - moved * c.move_ms;
    float* f = out.data() + kScalarFeatures + kFeaturesPerAction * (a - 1);
    f[0] = clamp_unit(share(value, c.mean_window_ms));
    f[1] = clamp_unit(share(static_cast<double>(p.window_gain), samples));
    f[2] = clamp_unit(share(static_cast<double>(p.score_gain), static_cast<double>(score_total_)));
    f[3] = clamp_unit(share(moved, 2 * slots));
  }
}

}  // namespace sysgym::memtier
