#include "agents/learned_policy.hpp"

#include <algorithm>

#include "agents/policy_file.hpp"
#include "base/error.hpp"
#include "base/quote.hpp"
#include "env/report_text.hpp"

namespace sysgym::agents {
namespace {

// What a policy was trained on, as KEY=V1,V2 texts: `sysgym train`'s --vary, or the programs an
// imitation policy was labelled on.
nlohmann::json trained_on(const nlohmann::json& training) {
  nlohmann::json out = nlohmann::json::array();
  if (training.contains("vary") && training["vary"].is_array()) return training["vary"];
  if (!training.contains("programs") || !training["programs"].is_array()) return out;
  std::string programs;
  for (const nlohmann::json& p : training["programs"]) {
    if (p.is_object() && p.contains("program") && p["program"].is_string())
      programs += (programs.empty() ? "" : ",") + p["program"].get<std::string>();
  }
  if (!programs.empty()) out.push_back("program=" + programs);
  return out;
}

class LearnedPolicy final : public Policy {
 public:
  LearnedPolicy(PolicyFile file, nlohmann::json trained_for)
      : file_(std::move(file)), trained_for_(std::move(trained_for)) {}
  void reset(const Env& env, Rng&) override { file_.bind(env); }
  void decide(const Env& env, Decision& out) override {
    out.use_directive = false;
    file_.act(env.observation(), out.action);
  }
  nlohmann::json parameters() const override {
    return {{"agent", file_.agent},
            {"trained_for", trained_for_},
            {"trained_on", trained_on(file_.training)},
            {"training", file_.training}};
  }

 private:
  PolicyFile file_;
  nlohmann::json trained_for_;
};

}  // namespace

void register_learned_policy(PolicyRegistry& registry, const Registry* envs) {
  registry.add({"learned",
                "A trained agent (DQN or PPO) from a policy file written by `sysgym train`; its "
                "parameters are the file's JSON. It sees only the observation, acts "
                "deterministically, and refuses an env whose observation layout or action space "
                "differs from the one it was trained on.",
                false,
                [envs](const nlohmann::json& config) -> std::unique_ptr<Policy> {
                  PolicyFile file = PolicyFile::from_json(config);
                  nlohmann::json trained_for = nlohmann::json::object();
                  if (envs != nullptr) {
                    const std::vector<std::string> ids = envs->ids();
                    if (std::find(ids.begin(), ids.end(), file.env_id) != ids.end())
                      trained_for = policy_base_config("learned", config, envs->spec(file.env_id));
                  }
                  return std::make_unique<LearnedPolicy>(std::move(file), std::move(trained_for));
                },
                true});
}

nlohmann::json policy_base_config(const std::string& policy, const nlohmann::json& parameters,
                                  const EnvSpec& env) {
  nlohmann::json out = nlohmann::json::object();
  if (policy != "learned" || !parameters.is_object() || !parameters.contains("env")) return out;
  const PolicyFile file = PolicyFile::from_json(parameters);
  if (file.env_id != env.id) return out;
  for (const ConfigKey& key : env.schema.keys()) {
    if ((key.fixed_by_policy || key.policy_task) && file.env_config.contains(key.name))
      out[key.name] = file.env_config[key.name];
  }
  return out;
}

namespace {

// A value in a message: strings quoted (they may hold anything), numbers as they are.
std::string shown(const nlohmann::json& value) {
  return value.is_string() ? quote(value.get<std::string>()) : value.dump();
}

std::string settings_text(const nlohmann::json& contract) {
  std::string out;
  for (const auto& [key, value] : contract.items())
    out += (out.empty() ? "" : ", ") + key + "=" + setting_value_text(value);
  return out;
}

}  // namespace

void check_policy_contract(const nlohmann::json& contract, const nlohmann::json& given) {
  if (!given.is_object()) return;
  for (const auto& [key, value] : contract.items()) {
    const auto it = given.find(key);
    if (it == given.end() || *it == value) continue;
    const std::string given_setting = key + "=" + shown(*it);
    std::string message = given_setting;
    message.append(" contradicts the learned policy, which was trained with ")
        .append(key)
        .append("=")
        .append(shown(value))
        .append(" (")
        .append(settings_text(contract))
        .append("): leave ")
        .append(key)
        .append(" out and the policy sets it, or use a policy trained for ")
        .append(given_setting);
    throw ConfigError(message);
  }
}

nlohmann::json config_for_policy(const std::string& policy, const nlohmann::json& parameters,
                                 const EnvSpec& env, const nlohmann::json& given) {
  if (!given.is_object()) return given;  // the env's reader names what is wrong with it
  nlohmann::json config = policy_base_config(policy, parameters, env);
  check_policy_contract(config, given);
  config.update(given);
  return config;
}

}  // namespace sysgym::agents
