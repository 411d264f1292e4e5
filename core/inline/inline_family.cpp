// inline's registration: the inline-v0 env's spec and the family's policies.
#include "inline/inline_family.hpp"

#include "inline/inline_env.hpp"

namespace sysgym::inlining {

void register_inline(Registry& registry, const std::shared_ptr<const DataSource>& data) {
  EnvSpec s;
  s.id = "inline-v0";
  s.summary = "decide per call site whether clang inlines it, for text size or instructions (MLGO)";
  s.factory = [data](const nlohmann::json& config) {
    return std::make_unique<InlineEnv>(config, *data);
  };
  s.example_config = {{"program", "kernels"}};
  s.schema = inline_schema();
  registry.add(std::move(s));
}

void register_family(Registry& envs, PolicyRegistry& policies,
                     const std::shared_ptr<const DataSource>& data) {
  register_inline(envs, data);
  register_inline_policies(policies);
}

}  // namespace sysgym::inlining
