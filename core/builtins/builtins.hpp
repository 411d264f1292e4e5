// Every built-in env family and policy, registered explicitly (static-initialiser
// self-registration is dropped by static links, natively and in wasm). A family adds one line
// here (builtins.cpp) and nothing else outside its own folder.
#pragma once

#include <memory>

#include "env/policy.hpp"
#include "env/registry.hpp"
#include "memtier/pair_source.hpp"

namespace sysgym {

// memtier-v0 resolves its traces through `traces`.
void register_builtins(Registry& envs, PolicyRegistry& policies,
                       const std::shared_ptr<memtier::PairSource>& traces);

}  // namespace sysgym
