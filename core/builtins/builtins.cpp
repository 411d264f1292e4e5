#include "builtins/builtins.hpp"

#include "agents/learned_policy.hpp"
#include "inline/inline_env.hpp"
#include "looptune/looptune_env.hpp"
#include "memtier/memtier_env.hpp"
#include "memtier/pair_source.hpp"
#include "memtier/policy.hpp"
#include "tensorplace/tensorplace_env.hpp"

namespace sysgym {

void register_builtins(Registry& envs, PolicyRegistry& policies,
                       const std::shared_ptr<const DataSource>& data) {
  register_generic_policies(policies);
  agents::register_learned_policy(policies);
  memtier::register_memtier(envs, memtier::pair_source_over(data));
  memtier::register_memtier_policies(policies);
  tensorplace::register_tensorplace(envs, data);
  tensorplace::register_tensorplace_policies(policies);
  looptune::register_looptune(envs, data);
  looptune::register_looptune_policies(policies);
  inlining::register_inline(envs, data);
  inlining::register_inline_policies(policies);
}

}  // namespace sysgym
