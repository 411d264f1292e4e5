#include "agents/learned_policy.hpp"

#include "agents/policy_file.hpp"

namespace sysgym::agents {
namespace {

class LearnedPolicy final : public Policy {
 public:
  explicit LearnedPolicy(PolicyFile file) : file_(std::move(file)) {}
  void reset(const Env& env, Rng&) override { file_.bind(env); }
  void decide(const Env& env, Decision& out) override {
    out.use_directive = false;
    file_.act(env.observation(), out.action);
  }
  nlohmann::json parameters() const override {
    return {{"agent", file_.agent}, {"training", file_.training}};
  }

 private:
  PolicyFile file_;
};

}  // namespace

void register_learned_policy(PolicyRegistry& registry) {
  registry.add({"learned",
                "A trained agent (DQN or PPO) from a policy file written by `sysgym train`; its "
                "parameters are the file's JSON. It sees only the observation, acts "
                "deterministically, and refuses an env whose observation layout or action space "
                "differs from the one it was trained on.",
                false,
                [](const nlohmann::json& config) -> std::unique_ptr<Policy> {
                  return std::make_unique<LearnedPolicy>(PolicyFile::from_json(config));
                },
                true});
}

nlohmann::json policy_base_config(const std::string& policy, const nlohmann::json& parameters,
                                  const EnvSpec& env) {
  nlohmann::json out = nlohmann::json::object();
  if (policy != "learned" || !parameters.is_object() || !parameters.contains("env")) return out;
  const PolicyFile file = PolicyFile::from_json(parameters);
  if (file.env_id != env.id) return out;
  for (const std::string& name : env.schema.names()) {
    if (env.schema.at(name).fixed_by_policy && file.env_config.contains(name))
      out[name] = file.env_config[name];
  }
  return out;
}

}  // namespace sysgym::agents
