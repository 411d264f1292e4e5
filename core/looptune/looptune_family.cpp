// looptune's registration: the looptune-v0 env's spec and the family's policies.
#include "looptune/looptune_family.hpp"

#include "looptune/looptune_env.hpp"

namespace sysgym::looptune {

void register_looptune(Registry& registry, const std::shared_ptr<const DataSource>& data) {
  EnvSpec s;
  s.id = "looptune-v0";
  s.summary = "tune a loop nest's order and tiling for GFLOPS (LoopTune on loop_tool)";
  s.factory = [data](const nlohmann::json& config) {
    return std::make_unique<LooptuneEnv>(config, *data);
  };
  s.example_config = {{"kernel", "matmul:64x64x64"}};
  s.schema = looptune_schema();
  registry.add(std::move(s));
}

void register_family(Registry& envs, PolicyRegistry& policies,
                     const std::shared_ptr<const DataSource>& data) {
  register_looptune(envs, data);
  register_looptune_policies(policies);
}

}  // namespace sysgym::looptune
