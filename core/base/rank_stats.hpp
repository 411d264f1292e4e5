// Rank statistics for comparing a model's figures with measured ones, where only the order
// matters (a search or an agent picks the fastest of its candidates).
#pragma once

#include <span>
#include <vector>

namespace sysgym {

// The rank of each value (0 = smallest); tied values share the mean of their ranks.
std::vector<double> ranks(std::span<const double> values);

// Spearman's rank correlation of two equally long series (Pearson's correlation of their ranks):
// 1 when both order every pair alike, -1 when they order every pair oppositely; 0 when either
// series is constant or shorter than 2.
double spearman(std::span<const double> x, std::span<const double> y);

// Of the pairs whose measured values differ by more than `gap` (0.05: 5 % of the smaller; values
// positive), the share the model orders alike (a tie in the model counts half), and the share of
// all pairs that differ that much (0 and 0 when none do). Spearman weighs every pair alike, also
// those the measurement barely tells apart; a search needs the model to order the others.
struct PairOrder {
  double ordered = 0;
  double apart = 0;
};
PairOrder pair_order(std::span<const double> model, std::span<const double> measured, double gap);

// The geometric mean of positive values (1 for none).
double geometric_mean(std::span<const double> values);

}  // namespace sysgym
