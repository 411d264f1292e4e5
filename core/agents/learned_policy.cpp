#include "agents/learned_policy.hpp"

#include "agents/policy_file.hpp"

namespace sysgym::agents {
namespace {

class LearnedPolicy final : public memtier::Policy {
 public:
  explicit LearnedPolicy(PolicyFile file) : file_(std::move(file)) {}
  void reset(const memtier::MemtierEnv& env, Rng&) override {
    file_.check_compatible(env.id(), env.action_space().to_string(), env.describe_observation());
  }
  void decide(const memtier::MemtierEnv& env, memtier::Decision& out) override {
    out.use_action = true;
    file_.act(env.observation(), out.action);
  }
  nlohmann::json parameters() const override {
    return {{"agent", file_.agent}, {"training", file_.training}};
  }

 private:
  PolicyFile file_;
};

}  // namespace

void register_learned_policy(memtier::PolicyRegistry& registry) {
  registry.add({"learned",
                "A trained agent (DQN or PPO) from a policy file written by `sysgym train`; its "
                "parameters are the file's JSON. It sees only the observation, acts "
                "deterministically, and refuses an env whose observation layout or action space "
                "differs from the one it was trained on.",
                false,
                [](const nlohmann::json& config) -> std::unique_ptr<memtier::Policy> {
                  return std::make_unique<LearnedPolicy>(PolicyFile::from_json(config));
                },
                true});
}

}  // namespace sysgym::agents
