// The memtier observation read one address bin at a time, for a network shared by all bins.
//
// Why: a network over the whole observation learns what bin 17 of the training traces means;
// on another trace bin 17 is other data. A network that scores each bin from that bin's own
// numbers (and the episode-wide scalars) learns "how hot, how recently, already resident, how
// much room" instead, which holds on traces it never saw, at any capacity.
//
// The env declares the layout (Env::entity_layout, env/entity_layout.hpp): C channels of B values,
// one of them the state channel (memtier: residency), the others activity (memtier: access
// histograms, newest first), then S scalars. Each bin's features are its C channel values, two
// activity ranks (the share of bins strictly more active in the first channel, and over all
// activity channels summed; ties share a rank, so bin positions never leak in), then the S
// scalars. Only comparisons, + and /: every build computes the same features.
//
// With `flip` actions a bin's output says "change this bin" rather than "want this bin": the
// placement is the resident set with the flipped bins toggled. A policy that starts by flipping
// little starts by keeping what it placed, so exploring does not churn the whole HBM at every
// step (with "want" outputs, a policy unsure about every bin evicts half of what it holds).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <vector>

#include "agents/mlp.hpp"
#include "env/entity_layout.hpp"

namespace sysgym::agents {

struct BinView {
  int bins = 0, channels = 0, scalars = 0;
  bool flip = false;
  // From the env's layout (not stored in policy files: bind() takes it from the env).
  int state_channel = -1;

  // The view of an observation of `observation_size` values laid out as `entities` declares.
  // Throws ConfigError when the env declares no entities, fewer than two channels, more values
  // than the observation holds, or flip actions without a state channel.
  static BinView of(const std::optional<EntityLayout>& entities, int observation_size, bool flip);
  // Takes the state channel from the env that the view (read from a policy file) will drive;
  // ConfigError when the env's entities differ from the file's.
  void bind(const std::optional<EntityLayout>& entities);

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
