// Every built-in env family, registered explicitly (static-initialiser self-registration is
// dropped by static links, natively and in wasm).
#pragma once

#include <memory>

#include "env/registry.hpp"
#include "memtier/pair_source.hpp"
#include "memtier/policy.hpp"

namespace sysgym {

// memtier-v0 resolves its traces through `traces`.
void register_builtins(Registry& registry, std::shared_ptr<memtier::PairSource> traces);

}  // namespace sysgym
