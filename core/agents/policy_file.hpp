// A trained policy as a file: what was trained (agent, network, frozen observation
// normaliser), for what (env id and resolved config, observation layout, action space) and how
// (agent config, training facts). Schema-versioned JSON; loading checks every field and a
// policy only acts in an env whose observation layout and action space match its own.
//
// Acting uses Mlp::act and the normaliser's fixed arithmetic, so a policy file chooses the same
// action for the same observation natively and in WebAssembly.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "agents/bin_view.hpp"
#include "agents/mlp.hpp"
#include "agents/normalizer.hpp"
#include "env/env.hpp"

namespace sysgym::agents {

inline constexpr int kPolicySchemaVersion = 1;

struct PolicyFile {
  // "dqn" (Discrete: argmax of Q), "ppo" (MultiBinary: logit > 0) or "imitation" (Discrete:
  // argmax of the class scores of a network trained on labelled actions, imitation.hpp)
  std::string agent;
  std::string env_id;
  nlohmann::json env_config;  // resolved config of the env it was trained on
  std::string action_space;   // Space::to_string()
  std::vector<std::string> observation_layout;
  ObservationNormalizer normalizer;  // disabled when the agent did not normalise
  Mlp network;
  // Set: the network reads one bin at a time (ppo: its logit; dqn: its promote and demote
  // advantages, with value_network giving Q(keep); see per_bin_q.hpp).
  std::optional<BinView> per_bin;
  std::optional<Mlp> value_network;
  nlohmann::json agent_config = nlohmann::json::object();
  nlohmann::json training = nlohmann::json::object();  // steps, seed, traces, curve summary

  nlohmann::json to_json() const;
  // Throws ConfigError naming the field that is missing or wrong.
  static PolicyFile from_json(const nlohmann::json& j);

  // Throws ConfigError saying what differs when `env` cannot be driven by the policy; a per-bin
  // view then takes the meaning of the env's channels (its state channel) from the env.
  void bind(const Env& env);
  // The action (flat values of the action space) for one observation.
  void act(std::span<const float> observation, std::vector<double>& action) const;
};

}  // namespace sysgym::agents
