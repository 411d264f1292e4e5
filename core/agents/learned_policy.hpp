// Policies from policy files: the "learned" entry of the policy registry, for every env family.
// Its parameters are the policy file's JSON (`sysgym run --policy learned --policy-config FILE`,
// or the object itself from JavaScript).
#pragma once

#include "env/policy.hpp"
#include "env/registry.hpp"

namespace sysgym::agents {

void register_learned_policy(PolicyRegistry& registry);

// The config an episode of `policy` starts from, before the user's keys: for `learned` on the
// env it was trained on, its file's values of the keys the env's schema marks fixed_by_policy
// (the network only fits the spaces it learned on); otherwise {}. Every shell calls this, so
// native and wasm episodes of a learned policy run on the same config.
nlohmann::json policy_base_config(const std::string& policy, const nlohmann::json& parameters,
                                  const EnvSpec& env);

}  // namespace sysgym::agents
