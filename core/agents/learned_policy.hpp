// Policies from policy files: the "learned" entry of the policy registry, for every env family.
// Its parameters are the policy file's JSON (`sysgym run --policy learned --policy-config FILE`,
// or the object itself from JavaScript).
#pragma once

#include "env/policy.hpp"

namespace sysgym::agents {

void register_learned_policy(PolicyRegistry& registry);

}  // namespace sysgym::agents
