// memtier policies from policy files: the "learned" entry of the policy registry, whose
// parameters are the policy file's JSON (`sysgym run --policy learned --policy-config FILE`,
// or the object itself from JavaScript).
#pragma once

#include "memtier/policy.hpp"

namespace sysgym::agents {

void register_learned_policy(memtier::PolicyRegistry& registry);

}  // namespace sysgym::agents
