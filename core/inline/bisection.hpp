// Which decisions account for the difference real mode measures between two decision sets. The
// cost model adds up per-decision effects; when two sets that it puts close together measure far
// apart, this names the decisions behind it: start from one set, change half of the decisions
// that differ to the other set's, measure, and follow the half that moves the measurement most
// in the whole change's direction, until one call group is left or neither half accounts for
// `min_share` of its part (the effect needs decisions from both halves: not additive).
//
// A call group is what clang decides once: a call where it was written, with its copies in
// always_inline bodies (base_location). Groups are halved hottest first (dynamic calls), so the
// first half holds the calls the cost model weighs most.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "inline/decisions.hpp"
#include "inline/program.hpp"

namespace sysgym::inlining {

struct CallGroup {
  std::vector<std::size_t> sites;  // into Program::sites, the written call first
  double calls = 0;                // dynamic calls of all its copies
};

// The groups `from` and `to` decide differently (as clang applies them: a group is inlined when
// any copy is asked to be; sites clang never inlines are no decision), hottest first, ties in
// the program's site order.
std::vector<CallGroup> differing_groups(const Program& program, const Decisions& from,
                                        const Decisions& to);

class Bisection {
 public:
  // Throws ConfigError when the two sets decide every group alike, or for min_share outside
  // (0, 1].
  Bisection(const Program& program, const Decisions& from, const Decisions& to, double min_share);

  struct Step {
    std::size_t groups = 0;        // changed in the first half; the second holds the rest
    std::size_t other_groups = 0;  // of the part halved
    double first = 0;              // the measurement with the first half changed
    double second = 0;
    bool took_first = false;
  };

  // The ends: `from` and `to` as they are, to measure first.
  std::pair<Decisions, Decisions> ends() const { return {from_, to_}; }
  void set_ends(double from_value, double to_value);

  bool done() const { return !stop_reason_.empty(); }
  // Why it stopped ("" while going on).
  const std::string& stop_reason() const { return stop_reason_; }
  // The next two sets to measure: `from` with each half of the groups left changed to `to`.
  std::pair<Decisions, Decisions> next() const;
  void record(double first, double second);

  const std::vector<CallGroup>& groups() const { return groups_; }  // all that differ
  // The groups left (indices into groups()) and what changing them alone does to `from`.
  const std::vector<std::size_t>& left() const { return left_; }
  double left_effect() const { return left_effect_; }
  double from_value() const { return from_value_; }
  double to_value() const { return to_value_; }
  const std::vector<Step>& steps() const { return steps_; }

 private:
  Decisions changed(std::size_t begin, std::size_t end) const;  // left_[begin, end) changed

  Decisions from_, to_;
  double min_share_;
  std::vector<CallGroup> groups_;
  std::vector<std::size_t> left_;
  double from_value_ = 0, to_value_ = 0, left_effect_ = 0;
  bool ends_set_ = false;
  std::vector<Step> steps_;
  std::string stop_reason_;
};

}  // namespace sysgym::inlining
