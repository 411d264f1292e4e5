// Policies from policy files: the "learned" entry of the policy registry, for every env family.
// Its parameters are the policy file's JSON (`sysgym run --policy learned --policy-config FILE`,
// or the object itself from JavaScript).
#pragma once

#include "env/policy.hpp"
#include "env/registry.hpp"

namespace sysgym::agents {

// With `envs`, a learned policy's parameters say what it was trained for (its contract, below).
void register_learned_policy(PolicyRegistry& registry, const Registry* envs = nullptr);

// A learned policy's contract: for `learned` on the env it was trained on, its file's values of
// the keys the env's schema marks fixed_by_policy (the network only fits the spaces it learned
// on) or policy_task (what it was trained to achieve); otherwise {}.
nlohmann::json policy_base_config(const std::string& policy, const nlohmann::json& parameters,
                                  const EnvSpec& env);

// The config an episode of `policy` runs on: the user's keys `given` (--config, --set,
// KEY=VALUE) over the policy's contract. A contract key given another value is a ConfigError
// naming both values, never a silent change of what the policy does or is scored on. Every shell
// calls this, so native and wasm episodes of a learned policy run on the same config.
nlohmann::json config_for_policy(const std::string& policy, const nlohmann::json& parameters,
                                 const EnvSpec& env, const nlohmann::json& given);

// Throws the ConfigError above when `given` contradicts `contract` (policy_base_config's).
void check_policy_contract(const nlohmann::json& contract, const nlohmann::json& given);

}  // namespace sysgym::agents
