// tensorplace's registration: the tensorplace-v0 env's spec and the family's policies.
#include "tensorplace/tensorplace_family.hpp"

#include "tensorplace/tensorplace_env.hpp"

namespace sysgym::tensorplace {

void register_tensorplace(Registry& registry, const std::shared_ptr<const DataSource>& data) {
  EnvSpec s;
  s.id = "tensorplace-v0";
  s.summary = "place a DNN training iteration's tensors between fast and slow memory (AutoTM)";
  s.factory = [data](const nlohmann::json& config) {
    return std::make_unique<TensorplaceEnv>(config, *data);
  };
  s.example_config = {{"model", "resnet50"}, {"batch", 8}, {"fast_memory", "50%"}};
  s.schema = tensorplace_schema();
  registry.add(std::move(s));
}

void register_family(Registry& envs, PolicyRegistry& policies,
                     const std::shared_ptr<const DataSource>& data) {
  register_tensorplace(envs, data);
  register_tensorplace_policies(policies);
}

}  // namespace sysgym::tensorplace
