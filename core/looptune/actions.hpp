// LoopTune's actions on a loop nest with a cursor, and those loop_tool has that LoopTune left out
// (merge and the unroll / vectorize annotations). An action that cannot apply is refused (the env
// turns it into a no-op with a flag); legal_actions() is the mask.
//
//   up, down             move the cursor to the loop above / below
//   swap_up, swap_down   swap the cursor's loop with the one above / below (the cursor follows);
//                        two loops of one variable never swap (their order defines the split)
//   split_2 ... split_32 split the cursor's loop of size n into n / f steps of an inner loop of f
//                        (placed right below it); the remainder joins the outer loop's tail
//   merge                merge the cursor's loop with the next loop of its variable inside it
//   unroll               toggle unrolling the cursor's loop (a loop covering at most 32)
//   vectorize            toggle SIMD on the innermost loop (covering a multiple of the width)
//
// Every action also keeps LoopTune's rule: the innermost loop covers 1 or a multiple of the SIMD
// width (limits.hpp), or is left as it was, and the nest has at most `max_loops` loops.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "looptune/loop_nest.hpp"

namespace sysgym::looptune {

enum class Action : int {
  kUp,
  kDown,
  kSwapUp,
  kSwapDown,
  kSplit2,
  kSplit4,
  kSplit8,
  kSplit16,
  kSplit32,
  kMerge,
  kUnroll,
  kVectorize,
};
inline constexpr int kActionCount = 12;
inline constexpr std::int64_t kMaxUnrollExtent = 32;

const char* action_name(Action a);
const std::vector<std::string>& action_names();
Action parse_action(const std::string& name, const std::string& context);  // UnknownNameError

struct Schedule {
  LoopNest nest;
  int cursor = 0;
};

// The schedule after `a`, or nullopt when `a` cannot apply to `s` (the reason in `why` when
// given).
std::optional<Schedule> apply(const Schedule& s, Action a, std::size_t max_loops,
                              std::string* why = nullptr);
std::array<bool, kActionCount> legal_actions(const Schedule& s, std::size_t max_loops);

}  // namespace sysgym::looptune
