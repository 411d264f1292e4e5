// PPO (Schulman et al. 2017) for MultiBinary action spaces (and Discrete(2), one variable): a
// policy MLP whose outputs are the logits of independent Bernoulli variables (one per bin: "this
// bin in HBM"), a separate value
// MLP, generalised advantage estimation (GAE, Schulman et al. 2016), the clipped surrogate, an
// entropy bonus and Adam.
//
// The policy network reads either the whole observation (outputs one logit per bin) or, with
// policy_network "per_bin", each bin's features (bin_view.hpp) and outputs that bin's logit:
// one small network shared by every bin. The value network always reads the whole
// observation, normalised.
//
// It learns from K envs stepped together: act() on the K current observations, record() the
// step's rewards and ends, and update() once `rollout_steps` steps are stored.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <vector>

#include "agents/adam.hpp"
#include "agents/bin_view.hpp"
#include "agents/collective.hpp"
#include "agents/mlp.hpp"
#include "agents/normalizer.hpp"
#include "base/rng.hpp"

namespace sysgym::agents {

struct PpoConfig {
  std::vector<int> hidden = {128, 128};
  double learning_rate = 3e-4;
  double gamma = 0.99;
  double gae_lambda = 0.95;
  double clip = 0.2;
  int epochs = 4;
  int minibatch_size = 256;
  int rollout_steps = 128;  // steps per env between updates
  double entropy_coef = 0.01;
  double value_coef = 0.5;
  double max_grad_norm = 0.5;
  bool normalize_observations = true;
  bool per_bin = false;       // "policy_network": "dense" (false) or "per_bin"
  bool flip_actions = false;  // per bin: outputs toggle bins (bin_view.hpp) instead of choosing
  // Initial logit of every bin: below 0 starts by asking for few bins, so early exploration
  // does not drown the reward in migration cost.
  double initial_logit = 0.0;

  // Every key optional; unknown keys are a ConfigError naming the closest valid one.
  static PpoConfig from_json(const nlohmann::json& j);
  nlohmann::json to_json() const;
};

struct PpoStats {
  double policy_loss = 0, value_loss = 0, entropy = 0, clip_fraction = 0;
};

class PpoAgent {
 public:
  // A per-bin policy (config.per_bin) reads the entities the env declares (Env::entity_layout).
  PpoAgent(int observation_size, int bins, int envs, PpoConfig config, std::uint64_t seed,
           const std::optional<EntityLayout>& entities = std::nullopt);

  // Actions for `envs` observations (rows): sampled while training (explore), else each bin's
  // more likely value. With explore, the step is stored for learning.
  void act(std::span<const float> observations, bool explore, std::span<double> actions);
  // The outcome of the step just taken. For truncated envs `final_observations` rows give the
  // state cut off, whose value is bootstrapped.
  void record(std::span<const double> rewards, std::span<const std::uint8_t> terminated,
              std::span<const std::uint8_t> truncated, std::span<const float> final_observations);
  bool ready() const { return stored_ == config_.rollout_steps; }
  // Learns from the stored rollout; `observations` are the envs' current ones (bootstrap).
  PpoStats update(std::span<const float> observations);

  std::int64_t env_steps() const { return env_steps_; }
  std::int64_t updates() const { return updates_; }
  const Mlp& policy_network() const { return policy_; }
  const Mlp& value_network() const { return value_; }
  const ObservationNormalizer& normalizer() const { return normalizer_; }
  // Set when the policy network is per bin.
  const std::optional<BinView>& bin_view() const { return bin_view_; }
  const PpoConfig& config() const { return config_; }

  // Synchronous data-parallel training over `collective`'s ranks (null: one process). Every rank
  // must have made its agent with the same seed (the same initial networks); `rank_seed` then
  // reseeds this rank's sampling and minibatch order. Gradients are averaged over the ranks
  // before each Adam step, so every rank keeps the same weights; the normaliser merges every
  // rank's rollout at each update (instead of following each observation as it comes).
  void set_collective(Collective* collective, std::uint64_t rank_seed);

  // Networks, optimizers, normaliser, generator and counters, so a resumed run learns on. The
  // rollout in progress is not part of it: loading starts a new rollout. load_state throws
  // ConfigError when the state belongs to another shape of agent.
  nlohmann::json state() const;
  void load_state(const nlohmann::json& j);

 private:
  Eigen::MatrixXd normalized(std::span<const float> rows, Eigen::Index count) const;
  // What the policy network reads for `count` observation rows: their normalised form (dense),
  // or every bin's features (per bin, feature_size x count * bins).
  Eigen::MatrixXd policy_input(std::span<const float> rows, const Eigen::MatrixXd& normalized,
                               Eigen::Index count) const;
  // The env's action value for `bin` from the network's decision (flip actions toggle).
  double placement(std::span<const float> observation, std::size_t bin, bool decision) const;
  // Logits (bins x count) from the policy network's output for `count` observations.
  Eigen::MatrixXd logits_of(const Eigen::MatrixXd& output, Eigen::Index count) const;

  PpoConfig config_;
  int obs_size_, bins_, envs_;
  Rng rng_;
  std::optional<BinView> bin_view_;
  Mlp policy_, value_;
  Adam policy_adam_, value_adam_;
  ObservationNormalizer normalizer_;
  // Rollout, column t * envs + k: observation (normalised when stored), action bits, old log
  // probability, value, reward, whether the episode ended after the step.
  Eigen::MatrixXd obs_, actions_;
  Eigen::MatrixXd policy_in_;  // per bin: features, columns (t * envs + k) * bins + i
  Eigen::VectorXd log_probs_, values_, rewards_, ends_;
  int stored_ = 0;
  std::int64_t env_steps_ = 0, updates_ = 0;
  Collective* collective_ = nullptr;
  // With a collective: this rollout's observation count, per-feature sums and sums of squares.
  std::vector<double> rollout_moments_;
  void merge_rollout_moments();
};

}  // namespace sysgym::agents
