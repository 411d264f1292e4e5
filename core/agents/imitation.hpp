// Imitation: a policy network trained by supervised learning on observations labelled with the
// action to take (behaviour cloning). The inline family's reward assignment labels call sites
// this way ("Inlining ML with ML" trained its MLP on such labels). The result is a policy file of
// agent "imitation": Discrete actions, argmax of the network's class scores, acting like every
// other learned policy in both builds.
#pragma once

#include <cstdint>
#include <vector>

#include "agents/mlp.hpp"
#include "agents/policy_file.hpp"
#include "env/env.hpp"

namespace sysgym::agents {

struct ImitationConfig {
  std::vector<int> hidden = {64, 64};
  int epochs = 40;
  int batch = 128;
  double learning_rate = 1e-3;
  // Weight each class by the inverse of its share, so that a rare action is not simply never
  // taken (inlining labels are mostly one class).
  bool balance = true;
  std::uint64_t seed = 0;
};

struct ImitationResult {
  Mlp network;
  std::vector<double> epoch_loss;  // mean weighted cross-entropy per epoch
  double accuracy = 0;             // on the training examples, after the last epoch
  double balanced_accuracy = 0;    // mean over classes of the share predicted right
};

// x: one observation per example, all of one size; y: the action of each, in [0, classes).
// Throws ConfigError for no examples, sizes that differ or an action out of range.
ImitationResult train_imitation(const std::vector<std::vector<float>>& x, const std::vector<int>& y,
                                int classes, const ImitationConfig& config);

// The policy file of a network trained by train_imitation on `env`'s observations: agent
// "imitation", the env's id, config, spaces and layout, no normalisation, and `agent_config` as
// the recipe that made it (training report left to the caller).
PolicyFile imitation_policy_file(const Env& env, Mlp network, nlohmann::json agent_config);

}  // namespace sysgym::agents
