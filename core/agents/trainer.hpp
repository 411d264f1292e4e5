// Trains a DQN or PPO agent on K envs stepped together (a VectorEnv; the shell may pass a
// ParallelFor to step them on threads), and keeps a learning curve. Env k gets its own config
// (so K envs can cover several traces and capacities: the curriculum is the caller's list).
//
// With one thread the run is a pure function of the options: the same seed gives the same
// weights. With a ParallelFor, envs step concurrently but share nothing, so it is too.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agents/apex.hpp"
#include "agents/collective.hpp"
#include "agents/dqn.hpp"
#include "agents/policy_file.hpp"
#include "agents/ppo.hpp"
#include "env/registry.hpp"
#include "env/vector_env.hpp"

namespace sysgym::agents {

struct TrainerOptions {
  // "dqn" (Discrete actions), "ppo" (MultiBinary actions), or empty: dqn where the env acts in
  // Discrete (its action space, or its for_training hook's for dqn, as memtier's), else ppo.
  std::string agent;
  nlohmann::json agent_config = nlohmann::json::object();
  std::string env_id;                       // a registered id or name
  std::vector<nlohmann::json> env_configs;  // one per env, as the user gave it (the env's
                                            // for_training hook adds its defaults)
  std::uint64_t seed = 0;
  std::int64_t curve_every = 2000;  // env steps between learning-curve points
};

struct CurvePoint {
  std::int64_t env_steps = 0;
  std::int64_t episodes = 0;
  double mean_return = 0;  // over the last 20 finished episodes
  double mean_metric = 0;  // the same episodes' primary metric, if the env declares one, else 0
  double loss = 0;         // DQN: last TD loss; PPO: last value loss
};

// The agents ("dqn", "ppo") that can train on env `spec`, `made` from `config`, after the env's
// training hook (memtier acts in Discrete for dqn and MultiBinary for ppo); throws what making the
// env on a training config throws.
std::vector<std::string> fitting_agents(const Registry& registry, const EnvSpec& spec,
                                        const nlohmann::json& config, const Env& made);

class Trainer {
 public:
  // Throws ConfigError for an agent that does not fit the env's action space, and whatever
  // making the envs throws.
  //
  // With a `collective` (not owned), this is one rank of distributed training: every rank makes
  // the same agent and steps its own envs (seeded apart by rank). PPO is synchronous data
  // parallel (gradients averaged every minibatch); DQN is Ape-X (agents/apex.hpp: experience to
  // rank 0's replay, weights back every `broadcast_every` updates). The weights end identical on
  // every rank; env steps and the curve count all ranks' envs, and every rank must make the same
  // calls (train_until, advance) in the same order.
  Trainer(const Registry& registry, TrainerOptions options, ParallelFor parallel_for = {},
          Collective* collective = nullptr);

  // Steps every env until env_steps() reaches `target`; calls on_point at each curve point.
  void train_until(std::int64_t target,
                   const std::function<void(const CurvePoint&)>& on_point = {});
  // Steps until the next curve point or `target`, whichever comes first; true when a point was
  // added (curve().back()). Shells without callbacks into C++ (WebAssembly) train in these
  // slices, with the same points as train_until.
  bool advance(std::int64_t target);

  std::int64_t env_steps() const { return env_steps_; }
  const std::string& agent() const { return options_.agent; }  // resolved: "dqn" or "ppo"
  // The env's primary metric, averaged into the curve ("" when the env declares none).
  const std::string& metric() const { return metric_; }
  std::int64_t episodes() const { return episodes_; }
  const std::vector<CurvePoint>& curve() const { return curve_; }
  CurvePoint current() const;
  // The trained policy, with the training facts filled in.
  PolicyFile policy() const;

  // A checkpoint to resume from: the options, counters, curve and the agent's whole learning
  // state (agents' state()). Resuming restores all of it; the envs start new episodes (seeded
  // from the seed and the step count), so a resumed run continues learning but is not bit for
  // bit the uninterrupted one. The same checkpoint resumed twice gives the same run.
  nlohmann::json state() const;
  // The options a state was trained with, to construct the Trainer that loads it. Throws
  // ConfigError when `j` is not a training state.
  static TrainerOptions options_of_state(const nlohmann::json& j);
  // Throws ConfigError when the state is malformed or from other options.
  void load_state(const nlohmann::json& j);

 private:
  void vector_step();
  // One vector step, or distributed DQN one Ape-X round of them.
  void step();
  void finish_episode(std::size_t k);
  // Resets the envs with `seed`; distributed, this rank's envs and exploration with a seed of
  // its own (rank 0's envs with `seed`).
  void start_episodes(std::uint64_t seed);
  // The curve point over every rank's recent episodes (current() in one process).
  CurvePoint gathered_point() const;

  TrainerOptions options_;
  VectorEnv envs_;
  std::size_t obs_size_, action_size_;
  std::unique_ptr<DqnAgent> dqn_;
  std::unique_ptr<PpoAgent> ppo_;
  PpoStats ppo_last_;
  std::vector<float> obs_;
  std::vector<double> actions_;
  std::vector<std::string> layout_;
  std::string metric_;
  std::vector<double> returns_;  // per env, of the episode so far
  std::vector<double> recent_returns_, recent_metrics_;
  std::int64_t env_steps_ = 0, episodes_ = 0, next_point_ = 0;
  std::vector<CurvePoint> curve_;
  Collective* collective_ = nullptr;
  std::unique_ptr<ApexExchange> apex_;  // distributed DQN
};

}  // namespace sysgym::agents
