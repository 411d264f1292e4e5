#include "agents/policy_file.hpp"

#include <algorithm>

#include "agents/dqn.hpp"
#include "agents/per_bin_q.hpp"
#include "base/error.hpp"
#include "base/quote.hpp"

namespace sysgym::agents {

nlohmann::json PolicyFile::to_json() const {
  return {{"schema_version", kPolicySchemaVersion},
          {"kind", "sysgym-policy"},
          {"agent", agent},
          {"env", {{"id", env_id}, {"config", env_config}}},
          {"action_space", action_space},
          {"observation_layout", observation_layout},
          {"normalizer", normalizer.to_json()},
          {"network", network.to_json()},
          {"per_bin", per_bin ? per_bin->to_json() : nlohmann::json()},
          {"value_network", value_network ? value_network->to_json() : nlohmann::json()},
          {"agent_config", agent_config},
          {"training", training}};
}

namespace {

const nlohmann::json& field(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) throw ConfigError(std::string("policy file: missing \"") + key + "\"");
  return j.at(key);
}

std::string text(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = field(j, key);
  if (!v.is_string()) throw ConfigError(std::string("policy file: \"") + key + "\" must be text");
  return v.get<std::string>();
}

}  // namespace

PolicyFile PolicyFile::from_json(const nlohmann::json& j) {
  if (!j.is_object() || j.value("kind", nlohmann::json()) != "sysgym-policy") {
    throw ConfigError("not a sysgym policy file (no \"kind\": \"sysgym-policy\")");
  }
  const nlohmann::json& version = field(j, "schema_version");
  if (!version.is_number_integer() || version.get<int>() != kPolicySchemaVersion) {
    throw ConfigError("policy file schema_version " + version.dump() + " is not supported (this " +
                      "sysgym reads version " + std::to_string(kPolicySchemaVersion) + ")");
  }
  PolicyFile p;
  p.agent = text(j, "agent");
  if (p.agent != "dqn" && p.agent != "ppo" && p.agent != "imitation") {
    throw ConfigError("policy file: unknown agent " + quote(p.agent) + " (dqn, ppo or imitation)");
  }
  const nlohmann::json& env = field(j, "env");
  p.env_id = text(env, "id");
  p.env_config = field(env, "config");
  p.action_space = text(j, "action_space");
  const nlohmann::json& layout = field(j, "observation_layout");
  if (!layout.is_array()) throw ConfigError("policy file: \"observation_layout\" must be a list");
  for (const nlohmann::json& name : layout) {
    if (!name.is_string()) throw ConfigError("policy file: observation names must be text");
    p.observation_layout.push_back(name.get<std::string>());
  }
  p.network = Mlp::from_json(field(j, "network"));
  const int observation_size = static_cast<int>(p.observation_layout.size());
  if (j.contains("per_bin") && !j["per_bin"].is_null()) {
    p.per_bin = BinView::from_json(j["per_bin"], observation_size);
    if (p.agent == "dqn") {
      p.value_network = Mlp::from_json(field(j, "value_network"));
      if (p.value_network->inputs() != observation_size || p.value_network->outputs() != 1 ||
          p.network.outputs() != 2) {
        throw ConfigError("policy file: a per-bin dqn needs a value network of the observation's " +
                          std::to_string(observation_size) +
                          " inputs and one output, and a network of two outputs (promote, demote)");
      }
    }
  }
  const int inputs = p.per_bin ? p.per_bin->feature_size() : observation_size;
  if (p.network.inputs() != inputs) {
    throw ConfigError("policy file: the network takes " + std::to_string(p.network.inputs()) +
                      " inputs but the observation layout gives " + std::to_string(inputs) +
                      (p.per_bin ? " features per bin" : ""));
  }
  p.normalizer =
      ObservationNormalizer::from_json(field(j, "normalizer"), p.observation_layout.size());
  p.agent_config = j.value("agent_config", nlohmann::json::object());
  p.training = j.value("training", nlohmann::json::object());
  return p;
}

void PolicyFile::bind(const Env& env) {
  const std::string& id = env.id();
  const std::string space = env.action_space().to_string();
  const std::vector<std::string> layout = env.observation_layout();
  if (id != env_id) {
    throw ConfigError("the policy was trained on " + env_id + ", not " + id);
  }
  if (space != action_space) {
    throw ConfigError("the policy acts in " + action_space + " but the env's action space is " +
                      space + " (train it with the same bins and action_mode)");
  }
  if (layout != observation_layout) {
    const auto [mine, theirs] = std::mismatch(observation_layout.begin(), observation_layout.end(),
                                              layout.begin(), layout.end());
    const std::size_t at = static_cast<std::size_t>(mine - observation_layout.begin());
    throw ConfigError("the policy's observation differs from the env's at feature " +
                      std::to_string(at) + " ('" +
                      (mine == observation_layout.end() ? std::string("end") : *mine) + "' vs '" +
                      (theirs == layout.end() ? std::string("end") : *theirs) +
                      "'): train it with the same bins and history");
  }
  if (per_bin) per_bin->bind(env.entity_layout());
}

void PolicyFile::act(std::span<const float> observation, std::vector<double>& action) const {
  std::vector<double> x(observation.size()), out;
  if (per_bin && value_network) {
    per_bin_q_values(*per_bin, network, *value_network, normalizer, observation, out);
  } else if (per_bin) {
    per_bin_logits(*per_bin, network, observation, out);
  } else {
    normalizer.apply(observation, x);
    network.act(x, out);
  }
  if (agent == "dqn" || agent == "imitation") {
    action.assign(1, static_cast<double>(argmax(out)));
  } else {
    action.resize(out.size());
    for (std::size_t i = 0; i < out.size(); ++i)
      action[i] = per_bin ? per_bin->placement(observation, static_cast<int>(i), out[i] > 0.0)
                          : (out[i] > 0.0 ? 1.0 : 0.0);
  }
}

}  // namespace sysgym::agents
