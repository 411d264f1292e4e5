// Every built-in env family and policy, registered explicitly (static-initialiser
// self-registration is dropped by static links, natively and in wasm). A family is one row of
// builtin_families() (builtins.cpp) and its folder, core/FAMILY, whose FAMILY_family.cpp registers
// its env and policies; docs/adding-a-family.md lists the other shells' rows.
#pragma once

#include <memory>
#include <vector>

#include "base/data_store.hpp"
#include "env/family.hpp"
#include "env/policy.hpp"
#include "env/registry.hpp"

namespace sysgym {

// The built-in families, in the order `sysgym list` shows their envs' registration.
const std::vector<Family>& builtin_families();

// The generic policies (random, constant, learned) and every built-in family's envs and
// policies. Families read their data by name from `data` (memtier: trace pairs).
void register_builtins(Registry& envs, PolicyRegistry& policies,
                       const std::shared_ptr<const DataSource>& data);

}  // namespace sysgym
