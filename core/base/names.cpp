#include "base/names.hpp"

#include <algorithm>
#include <numeric>

#include "base/quote.hpp"

namespace sysgym {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitution = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitution});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string closest_name(std::string_view name, const std::vector<std::string>& valid) {
  // Valid names are short: a long one is no typo of them, and its distances would cost
  // O(length x names) for nothing (a 150 MB config key took a minute).
  if (name.size() > kMaxSuggestedLength) return "";
  // A name cut short ("lfu" for "lfu-hemem") is nearer in intent than one a letter away.
  std::string best;
  for (const auto& candidate : valid) {
    if (name.size() >= 2 && candidate.starts_with(name) &&
        (best.empty() || candidate.size() < best.size())) {
      best = candidate;
    }
  }
  if (!best.empty()) return best;
  std::size_t best_distance = name.size() / 2 + 1;
  for (const auto& candidate : valid) {
    const std::size_t d = edit_distance(name, candidate);
    if (d < best_distance) {
      best_distance = d;
      best = candidate;
    }
  }
  return best;
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += separator;
    out += items[i];
  }
  return out;
}

std::string unknown_name_message(std::string_view what, std::string_view name,
                                 const std::vector<std::string>& valid) {
  return unknown_name_message(what, name, valid, valid);
}

std::string unknown_name_message(std::string_view what, std::string_view name,
                                 const std::vector<std::string>& valid,
                                 const std::vector<std::string>& accepted) {
  std::string message = "unknown " + std::string(what) + " " + quote(name, 60);
  const std::string suggestion = closest_name(name, accepted);
  if (!suggestion.empty()) message += " (did you mean '" + suggestion + "'?)";
  message += "; valid: " + (valid.empty() ? std::string("(none)") : join(valid, ", "));
  return message;
}

}  // namespace sysgym
