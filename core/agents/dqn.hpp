// DQN (Mnih et al. 2015) for Discrete action spaces: an MLP Q-network, uniform experience
// replay, a target network synced every `target_update` gradient steps, double-DQN targets
// (van Hasselt et al. 2016), a linear epsilon schedule, Huber loss and Adam.
//
// Everything random draws from one seeded Rng in a fixed order, so a seed reproduces the same
// weights bit for bit (one thread, same build).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <vector>

#include "agents/adam.hpp"
#include "agents/bin_view.hpp"
#include "agents/mlp.hpp"
#include "agents/normalizer.hpp"
#include "agents/replay_buffer.hpp"
#include "base/rng.hpp"

namespace sysgym::agents {

struct DqnConfig {
  std::vector<int> hidden = {128, 128};
  double learning_rate = 5e-4;
  double gamma = 0.99;
  int batch_size = 64;
  int replay_capacity = 100000;
  int learning_starts = 1000;  // env steps before the first update
  int train_every = 4;         // env steps per gradient update
  int target_update = 500;     // gradient updates between target-network syncs
  double epsilon_start = 1.0, epsilon_end = 0.05;
  std::int64_t epsilon_decay_steps = 20000;
  bool double_dqn = true;
  double huber_delta = 1.0;
  double max_grad_norm = 10.0;
  bool normalize_observations = true;
  bool per_bin = false;  // "q_network": "dense" (false) or "per_bin" (per_bin_q.hpp)
  // Distributed (Ape-X, agents/apex.hpp): learner updates between the weights it sends the ranks.
  int broadcast_every = 50;

  // Every key optional; unknown keys are a ConfigError naming the closest valid one.
  static DqnConfig from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;
};

class DqnAgent {
 public:
  // A per-bin Q (config.per_bin) reads the entities the env declares (Env::entity_layout).
  DqnAgent(int observation_size, int actions, DqnConfig config, std::uint64_t seed,
           const std::optional<EntityLayout>& entities = std::nullopt);

  // Epsilon-greedy while training (explore), greedy otherwise; ties go to the lower action.
  int act(std::span<const float> observation, bool explore);
  // Stores a transition, counts an env step, and learns every `train_every` steps once
  // `learning_starts` steps were seen. `terminal` is true only for a real end (not truncation).
  void observe(std::span<const float> observation, int action, double reward,
               std::span<const float> next, bool terminal);

  // The parts of observe() for a learner fed by others (Ape-X): store() keeps a transition and
  // counts an env step; learn() makes one gradient update (once `learning_starts` steps were
  // stored; a no-op before).
  void store(std::span<const float> observation, int action, double reward,
             std::span<const float> next, bool terminal);
  void learn();
  // What acting needs (networks, normaliser, the step count of the epsilon schedule) as one flat
  // list, to send from the learner to the actors; the same agent shape reads it back.
  std::vector<double> acting_parameters() const;
  void load_acting_parameters(std::span<const double> values);
  // Another exploration (and replay sampling) stream; ranks explore apart.
  void reseed(std::uint64_t seed) { rng_.reseed(seed); }
  // Frees the replay buffer (an actor rank that was resumed from the learner's state).
  void release_replay() { replay_.release(); }

  double epsilon() const;
  std::int64_t env_steps() const { return env_steps_; }
  std::int64_t updates() const { return updates_; }
  double last_loss() const { return last_loss_; }
  // The Q-network, or with a per-bin Q the advantage network shared by the bins.
  const Mlp& q_network() const { return q_; }
  // Per-bin Q only: the bin view and the value network.
  const std::optional<BinView>& bin_view() const { return bin_view_; }
  const Mlp& value_network() const { return value_; }
  const ObservationNormalizer& normalizer() const { return normalizer_; }
  const DqnConfig& config() const { return config_; }

  // Everything learning depends on (networks, optimizer, normaliser, generator, replay buffer,
  // counters), so a run resumed from it learns on as if never stopped. load_state throws
  // ConfigError when the state belongs to another shape of agent.
  nlohmann::json state() const;
  void load_state(const nlohmann::json& j);

 private:
  void update();
  // Q of a replay batch: the online values of x (keeping activations for backward), the
  // online and target values of next.
  void batch_q(const Eigen::MatrixXd& x, const Eigen::MatrixXd& next, Eigen::MatrixXd& q,
               Eigen::MatrixXd& online_next, Eigen::MatrixXd& target_next);
  Eigen::MatrixXd bin_features(bool next_observations) const;

  DqnConfig config_;
  int actions_;
  Rng rng_;
  std::optional<BinView> bin_view_;
  Mlp q_, target_;
  Adam adam_;
  Mlp value_, value_target_;  // per-bin Q only
  std::optional<Adam> value_adam_;
  ReplayBuffer replay_;
  ObservationNormalizer normalizer_;
  std::int64_t env_steps_ = 0, updates_ = 0;
  double last_loss_ = 0;
  std::vector<double> scratch_, values_;
  std::vector<std::size_t> batch_;
};

// Index of the largest value; the lowest index among equals.
int argmax(std::span<const double> values);

}  // namespace sysgym::agents
