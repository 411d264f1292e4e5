#include "builtins/builtins.hpp"

#include "agents/learned_policy.hpp"
#include "inline/inline_family.hpp"
#include "looptune/looptune_family.hpp"
#include "memtier/memtier_family.hpp"
#include "tensorplace/tensorplace_family.hpp"

namespace sysgym {

const std::vector<Family>& builtin_families() {
  static const std::vector<Family> families = {
      {"memtier", memtier::register_family},
      {"tensorplace", tensorplace::register_family},
      {"looptune", looptune::register_family},
      {"inline", inlining::register_family},
  };
  return families;
}

void register_builtins(Registry& envs, PolicyRegistry& policies,
                       const std::shared_ptr<const DataSource>& data) {
  register_generic_policies(policies);
  agents::register_learned_policy(policies, &envs);
  for (const Family& family : builtin_families())
    family.register_with(envs, policies, data);
}

}  // namespace sysgym
