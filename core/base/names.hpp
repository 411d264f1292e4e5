// Helpers for "unknown name" messages: the closest valid name and the list of valid ones.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sysgym {

// Names longer than this get no "did you mean".
inline constexpr std::size_t kMaxSuggestedLength = 128;

// Levenshtein distance, case-sensitive.
std::size_t edit_distance(std::string_view a, std::string_view b);

// The shortest valid name that starts with `name` (2 characters or more), else the closest by
// edit distance, or "" when none is within half of name's length.
std::string closest_name(std::string_view name, const std::vector<std::string>& valid);

// "unknown <what> 'name' (did you mean 'x'?); valid: a, b, c"
std::string unknown_name_message(std::string_view what, std::string_view name,
                                 const std::vector<std::string>& valid);
// The same, suggesting from `accepted` (e.g. valid ids and the bare names that stand for them).
std::string unknown_name_message(std::string_view what, std::string_view name,
                                 const std::vector<std::string>& valid,
                                 const std::vector<std::string>& accepted);

std::string join(const std::vector<std::string>& items, std::string_view separator);

}  // namespace sysgym
