// The memtier observation read one address bin at a time, for a network shared by all bins.
//
// Why: a network over the whole observation learns what bin 17 of the training traces means;
// on another trace bin 17 is other data. A network that scores each bin from that bin's own
// numbers (and the episode-wide scalars) learns "how hot, how recently, already resident, how
// much room" instead, which holds on traces it never saw, at any capacity.
//
// The observation is C channels of B values (channel 1 is residency, the others access
// histograms, newest first), then S scalars: memtier-v0's layout. Each bin's features are its C
// channel values, two hotness ranks (the share of bins strictly hotter in the last window, and
// over all histogram channels summed; ties share a rank, so bin positions never leak in), then
// the S scalars. Only comparisons, + and /: every build computes the same features.
//
// With `flip` actions a bin's output says "change this bin" rather than "want this bin": the
// placement is the resident set with the flipped bins toggled. A policy that starts by flipping
// little starts by keeping what it placed, so exploring does not churn the whole HBM at every
// step (with "want" outputs, a policy unsure about every bin evicts half of what it holds).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "agents/mlp.hpp"

namespace sysgym::agents {

struct BinView {
  int bins = 0, channels = 0, scalars = 0;
  bool flip = false;

  // The view of an observation of `observation_size` values over `bins` bins. Throws
  // ConfigError when it cannot be that layout (fewer than two channels, more scalars than bins).
  static BinView of(int observation_size, int bins, bool flip);

  int feature_size() const { return channels + 2 + scalars; }
  // Features of every bin of one observation, bin after bin: out has feature_size() x bins
  // values (column-major: bin i's features are out[i * feature_size(), ...]).
  void features(std::span<const float> observation, std::span<double> out) const;
  // The env's action value for bin i given the network's decision (0 or 1): the decision
  // itself, or with flip actions the bin's residency (more than half in HBM) toggled by it.
  double placement(std::span<const float> observation, int i, double decision) const;

  nlohmann::json to_json() const;
  // Throws ConfigError naming what is missing or inconsistent with `observation_size`.
  static BinView from_json(const nlohmann::json& j, int observation_size);
};

// Features of `count` observations (`row(k)` gives observation k), observation after
// observation: feature_size x (count * bins), the batch a per-bin network trains on.
Eigen::MatrixXd batch_features(const BinView& view, Eigen::Index count,
                               const std::function<std::span<const float>(Eigen::Index)>& row);

// One logit per bin from a per-bin network, in the fixed-order arithmetic of Mlp::act (the same
// in every build).
void per_bin_logits(const BinView& view, const Mlp& network, std::span<const float> observation,
                    std::vector<double>& logits);

}  // namespace sysgym::agents
