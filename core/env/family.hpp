// An env family as the shells see it: a name (its folder under core/, the prefix of its env ids)
// and one call that registers its envs and policies, reading its data by name through the shell's
// DataSource. core/builtins lists the built-in ones, one row each; a test or an embedding
// program may register a family of its own the same way.
#pragma once

#include <memory>
#include <string>

#include "base/data_store.hpp"
#include "env/policy.hpp"
#include "env/registry.hpp"

namespace sysgym {

using RegisterFamily = void (*)(Registry& envs, PolicyRegistry& policies,
                                const std::shared_ptr<const DataSource>& data);

struct Family {
  std::string name;
  RegisterFamily register_with = nullptr;
};

}  // namespace sysgym
