#include "inline/bisection.hpp"

#include <algorithm>
#include <cmath>

#include "base/error.hpp"
#include "inline/cost_model.hpp"

namespace sysgym::inlining {

std::vector<CallGroup> differing_groups(const Program& program, const Decisions& from,
                                        const Decisions& to) {
  const ProgramModel model(program);
  const Decisions a = model.as_compiled(from), b = model.as_compiled(to);
  std::vector<CallGroup> groups;
  std::vector<std::size_t> group_of(program.sites.size(), program.sites.size());
  for (std::size_t s = 0; s < program.sites.size(); ++s) {
    const std::size_t at = model.decided_at(s);
    if (!program.sites[at].decidable() || a[at] == b[at]) continue;
    if (group_of[at] == program.sites.size()) {
      group_of[at] = groups.size();
      groups.emplace_back();
    }
    CallGroup& g = groups[group_of[at]];
    g.sites.push_back(s);
    g.calls += program.sites[s].calls;
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const CallGroup& x, const CallGroup& y) { return x.calls > y.calls; });
  return groups;
}

Bisection::Bisection(const Program& program, const Decisions& from, const Decisions& to,
                     double min_share)
    : min_share_(min_share) {
  if (!(min_share > 0 && min_share <= 1))
    throw ConfigError("bisect: min_share " + std::to_string(min_share) + " is not in (0, 1]");
  const ProgramModel model(program);
  from_ = model.as_compiled(from);
  to_ = model.as_compiled(to);
  groups_ = differing_groups(program, from_, to_);
  if (groups_.empty())
    throw ConfigError(
        "bisect: the two decision sets inline the same call sites; nothing to bisect");
  for (std::size_t g = 0; g < groups_.size(); ++g)
    left_.push_back(g);
}

void Bisection::set_ends(double from_value, double to_value) {
  from_value_ = from_value;
  to_value_ = to_value;
  left_effect_ = to_value - from_value;
  ends_set_ = true;
  if (left_.size() == 1) stop_reason_ = "one call group left";
}

Decisions Bisection::changed(std::size_t begin, std::size_t end) const {
  Decisions d = from_;
  for (std::size_t k = begin; k < end; ++k) {
    for (std::size_t s : groups_[left_[k]].sites)
      d[s] = to_[s];
  }
  return d;
}

std::pair<Decisions, Decisions> Bisection::next() const {
  if (!ends_set_ || done()) throw ConfigError("bisect: no step to take");
  const std::size_t half = left_.size() / 2;
  return {changed(0, half), changed(half, left_.size())};
}

void Bisection::record(double first, double second) {
  if (!ends_set_ || done()) throw ConfigError("bisect: no step to take");
  Step step;
  step.groups = left_.size() / 2;
  step.other_groups = left_.size() - step.groups;
  step.first = first;
  step.second = second;
  // Follow the whole change's direction; with no change to follow, the larger move.
  const double direction = left_effect_ < 0 ? -1.0 : 1.0;
  const double a = first - from_value_, b = second - from_value_;
  step.took_first = left_effect_ == 0 ? std::abs(a) >= std::abs(b) : a * direction >= b * direction;
  const double taken = step.took_first ? a : b;
  steps_.push_back(step);
  const double moved = left_effect_ == 0 ? std::max(std::abs(a), std::abs(b))
                                         : std::max(a * direction, b * direction);
  if (moved <= 0 || moved < min_share_ * std::abs(left_effect_)) {
    stop_reason_ = "not additive: neither half moves the measurement by " +
                   std::to_string(static_cast<int>(std::lround(100 * min_share_))) +
                   " % of what the groups left do together";
    return;
  }
  if (step.took_first) {
    left_.resize(step.groups);
  } else {
    left_.erase(left_.begin(), left_.begin() + static_cast<std::ptrdiff_t>(step.groups));
  }
  left_effect_ = taken;
  if (left_.size() == 1) stop_reason_ = "one call group left";
}

}  // namespace sysgym::inlining
