// looptune's registration: the looptune-v0 env's spec and the family's policies.
#include "looptune/looptune_family.hpp"

#include "looptune/looptune_env.hpp"
#include "looptune/problems.hpp"

namespace sysgym::looptune {

void register_looptune(Registry& registry, const std::shared_ptr<const DataSource>& data) {
  EnvSpec s;
  s.id = "looptune-v0";
  s.summary = "tune a loop nest's order and tiling for GFLOPS (LoopTune on loop_tool)";
  s.factory = [data](const nlohmann::json& config) {
    return std::make_unique<LooptuneEnv>(config, *data);
  };
  s.example_config = {{"kernel", "matmul:64x64x64"}};
  // A problem set is evaluated on each of its problems, not on the one an episode's seed draws.
  s.for_evaluation = [](nlohmann::json config) {
    const nlohmann::json kernel = config.value("kernel", nlohmann::json());
    std::vector<nlohmann::json> out;
    for (const std::string& problem :
         kernel.is_string() ? problem_set(kernel.get<std::string>()) : std::vector<std::string>{}) {
      out.push_back(config);
      out.back()["kernel"] = problem;
    }
    if (out.empty()) out.push_back(std::move(config));
    return out;
  };
  s.schema = looptune_schema();
  registry.add(std::move(s));
}

void register_family(Registry& envs, PolicyRegistry& policies,
                     const std::shared_ptr<const DataSource>& data) {
  register_looptune(envs, data);
  register_looptune_policies(policies);
}

}  // namespace sysgym::looptune
