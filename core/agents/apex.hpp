// Ape-X DQN (Horgan et al. 2018) across the ranks of a Collective: every rank steps envs of its
// own with the weights the learner last sent and keeps its transitions; rank 0 is also the
// learner, owning the replay buffer and the optimiser.
//
// Made reproducible by rounds. In each, every rank takes `steps_per_round` vector steps, then
// rank 0 makes `broadcast_every` gradient updates, gathers every rank's transitions into replay
// (in rank order) and sends all ranks its acting parameters (weights, normaliser, step count).
// So a seed and a rank count give the same weights every run, and each rank's round ends with
// the learner's weights. One rank's rounds keep plain DQN's ratio of updates to env steps
// (`train_every`); N ranks bring N times the experience per update, as Ape-X's actors do: the
// learner's update rate, not the env steps, is what more ranks cannot raise.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "agents/collective.hpp"
#include "agents/dqn.hpp"

namespace sysgym::agents {

class ApexExchange {
 public:
  // `envs`: the envs each rank steps together.
  ApexExchange(Collective& collective, DqnAgent& agent, std::size_t envs);

  // Vector steps a rank takes per round: broadcast_every x train_every transitions of its envs.
  std::int64_t steps_per_round() const { return steps_per_round_; }
  bool learner() const { return collective_.rank() == 0; }

  // One of this rank's transitions, sent to the learner at the round's end.
  void keep(std::span<const float> observation, int action, double reward,
            std::span<const float> next, bool terminal);
  // The round's end; every rank calls it after its steps.
  void finish_round();

 private:
  void store_transitions(std::span<const std::byte> bytes);

  Collective& collective_;
  DqnAgent& agent_;
  std::int64_t steps_per_round_;
  std::vector<std::byte> outbox_, inbox_;
  std::vector<float> obs_, next_;
};

}  // namespace sysgym::agents
