// Every built-in env family and policy, registered explicitly (static-initialiser
// self-registration is dropped by static links, natively and in wasm). A family adds one line
// here (builtins.cpp) and nothing else outside its own folder.
#pragma once

#include <memory>

#include "base/data_store.hpp"
#include "env/policy.hpp"
#include "env/registry.hpp"

namespace sysgym {

// Families read their data by name from `data` (memtier: trace pairs).
void register_builtins(Registry& envs, PolicyRegistry& policies,
                       const std::shared_ptr<const DataSource>& data);

}  // namespace sysgym
