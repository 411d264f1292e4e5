#include "looptune/actions.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "base/names.hpp"
#include "looptune/limits.hpp"

namespace sysgym::looptune {
namespace {

std::optional<Schedule> refuse(std::string* why, const std::string& reason) {
  if (why != nullptr) *why = reason;
  return std::nullopt;
}

bool innermost_ok(const LoopNest& nest) {
  const std::int64_t e = nest.extent(nest.size() - 1);
  return e == 1 || e % kSimdWidth == 0;
}

std::optional<Schedule> swap(const Schedule& s, int other, std::string* why) {
  const auto& loops = s.nest.loops();
  if (other < 0 || other >= static_cast<int>(loops.size()))
    return refuse(why, "no loop to swap with");
  const auto c = static_cast<std::size_t>(s.cursor);
  const auto o = static_cast<std::size_t>(other);
  if (loops[c].var == loops[o].var) return refuse(why, "both loops walk the same variable");
  std::vector<Loop> next = loops;
  std::swap(next[c], next[o]);
  return Schedule{LoopNest(s.nest.problem_ptr(), std::move(next)), other};
}

std::optional<Schedule> split(const Schedule& s, std::int64_t f, std::size_t max_loops,
                              std::string* why) {
  const auto c = static_cast<std::size_t>(s.cursor);
  const Loop& l = s.nest.loop(c);
  if (s.nest.size() >= max_loops)
    return refuse(why, "the nest already has " + std::to_string(max_loops) + " loops");
  if (l.size < f)
    return refuse(why, "a loop of " + std::to_string(l.size) + " steps splits by at most that");
  std::vector<Loop> next = s.nest.loops();
  const std::int64_t step = s.nest.step(c);
  next[c] = Loop{l.var, l.size / f, (l.size % f) * step + l.tail};
  next.insert(next.begin() + static_cast<std::ptrdiff_t>(c) + 1, Loop{l.var, f, 0});
  return Schedule{LoopNest(s.nest.problem_ptr(), std::move(next)), s.cursor};
}

std::optional<Schedule> merge(const Schedule& s, std::string* why) {
  const auto c = static_cast<std::size_t>(s.cursor);
  const auto& loops = s.nest.loops();
  std::size_t inner = c + 1;
  while (inner < loops.size() && loops[inner].var != loops[c].var)
    ++inner;
  if (inner == loops.size()) return refuse(why, "no inner loop of the same variable to merge");
  const std::int64_t step = s.nest.step(inner);
  const std::int64_t extent = s.nest.extent(c);
  std::vector<Loop> next = loops;
  next[c] = Loop{loops[c].var, extent / step, extent % step};
  next.erase(next.begin() + static_cast<std::ptrdiff_t>(inner));
  return Schedule{LoopNest(s.nest.problem_ptr(), std::move(next)), s.cursor};
}

std::optional<Schedule> annotate(const Schedule& s, Action a, std::string* why) {
  const auto c = static_cast<std::size_t>(s.cursor);
  std::vector<Loop> next = s.nest.loops();
  if (a == Action::kUnroll) {
    if (s.nest.extent(c) > kMaxUnrollExtent)
      return refuse(why,
                    "unroll takes a loop covering at most " + std::to_string(kMaxUnrollExtent));
    next[c].unroll = !next[c].unroll;
  } else {
    if (c + 1 != next.size()) return refuse(why, "vectorize takes the innermost loop");
    if (s.nest.extent(c) % kSimdWidth != 0)
      return refuse(why, "the innermost loop does not cover a multiple of the SIMD width");
    next[c].vectorize = !next[c].vectorize;
  }
  return Schedule{LoopNest(s.nest.problem_ptr(), std::move(next)), s.cursor};
}

std::optional<Schedule> apply_unchecked(const Schedule& s, Action a, std::size_t max_loops,
                                        std::string* why) {
  const int last = static_cast<int>(s.nest.size()) - 1;
  switch (a) {
    case Action::kUp:
      if (s.cursor == 0) return refuse(why, "the cursor is at the outermost loop");
      return Schedule{s.nest, s.cursor - 1};
    case Action::kDown:
      if (s.cursor == last) return refuse(why, "the cursor is at the innermost loop");
      return Schedule{s.nest, s.cursor + 1};
    case Action::kSwapUp:
      return swap(s, s.cursor - 1, why);
    case Action::kSwapDown:
      return swap(s, s.cursor + 1, why);
    case Action::kSplit2:
    case Action::kSplit4:
    case Action::kSplit8:
    case Action::kSplit16:
    case Action::kSplit32:
      return split(s, std::int64_t{2} << (static_cast<int>(a) - static_cast<int>(Action::kSplit2)),
                   max_loops, why);
    case Action::kMerge:
      return merge(s, why);
    case Action::kUnroll:
    case Action::kVectorize:
      return annotate(s, a, why);
  }
  return refuse(why, "unknown action");
}

}  // namespace

const std::vector<std::string>& action_names() {
  static const std::vector<std::string> names = {"up",       "down",    "swap_up", "swap_down",
                                                 "split_2",  "split_4", "split_8", "split_16",
                                                 "split_32", "merge",   "unroll",  "vectorize"};
  return names;
}

const char* action_name(Action a) {
  return action_names().at(static_cast<std::size_t>(a)).c_str();
}

Action parse_action(const std::string& name, const std::string& context) {
  const auto& names = action_names();
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    throw UnknownNameError(context + ": " + unknown_name_message("action", name, names));
  return static_cast<Action>(it - names.begin());
}

std::optional<Schedule> apply(const Schedule& s, Action a, std::size_t max_loops,
                              std::string* why) {
  std::optional<Schedule> next = apply_unchecked(s, a, max_loops, why);
  if (!next) return next;
  const Loop& before = s.nest.loop(s.nest.size() - 1);
  const Loop& after = next->nest.loop(next->nest.size() - 1);
  if (!innermost_ok(next->nest) &&
      !(before == after &&
        s.nest.extent(s.nest.size() - 1) == next->nest.extent(next->nest.size() - 1)))
    return refuse(why,
                  "the innermost loop would cover neither 1 nor a multiple of the SIMD width (" +
                      std::to_string(kSimdWidth) + ")");
  return next;
}

std::array<bool, kActionCount> legal_actions(const Schedule& s, std::size_t max_loops) {
  std::array<bool, kActionCount> legal{};
  for (int a = 0; a < kActionCount; ++a)
    legal[static_cast<std::size_t>(a)] = apply(s, static_cast<Action>(a), max_loops).has_value();
  return legal;
}

}  // namespace sysgym::looptune
