#include "agents/evaluation.hpp"

#include "agents/learned_policy.hpp"
#include "base/error.hpp"
#include "env/config_grid.hpp"
#include "env/report_text.hpp"
#include "env/reports.hpp"

namespace sysgym::agents {
namespace {

void check_one_env(const EvaluationRequest& request, const Registry& envs) {
  if (request.trained.empty()) throw ConfigError("give at least one --policy file");
  const TrainedPolicy& first = request.trained.front();
  for (const TrainedPolicy& t : request.trained) {
    if (t.file.env_id != first.file.env_id) {
      throw ConfigError("--policy " + t.path + " was trained on " + t.file.env_id + ", " +
                        first.path + " on " + first.file.env_id + ": evaluate them separately");
    }
  }
  const EnvSpec& spec = envs.spec(first.file.env_id);
  if (!request.env.empty() && envs.resolve(request.env) != spec.id)
    throw ConfigError("the policies were trained on " + spec.id + ", not " +
                      envs.resolve(request.env));
  // Every row is scored on one task: the policies must have been trained for the same one.
  for (const ConfigKey& key : spec.schema.keys()) {
    if (!key.policy_task) continue;
    for (const TrainedPolicy& t : request.trained) {
      const nlohmann::json mine = t.file.env_config.value(key.name, nlohmann::json());
      const nlohmann::json theirs = first.file.env_config.value(key.name, nlohmann::json());
      if (mine != theirs) {
        throw ConfigError("--policy " + t.path + " was trained for " + key.name + "=" +
                          mine.dump() + ", " + first.path + " for " + key.name + "=" +
                          theirs.dump() + ": evaluate them separately");
      }
    }
  }
}

// The config every row shares: the first policy's training settings without the keys that shape
// each policy's network (each brings its own), then the user's, which may not contradict any
// policy's contract.
nlohmann::json shared_config(const EnvSpec& spec, const EvaluationRequest& request) {
  nlohmann::json config = request.trained.front().file.env_config;
  for (const std::string& key : spec.schema.names()) {
    if (spec.schema.at(key).fixed_by_policy) config.erase(key);
  }
  return spec.command_line_config(std::move(config), request.config, request.settings);
}

nlohmann::json evaluate(const EnvSpec& spec, const PolicyRegistry& policies,
                        const nlohmann::json& config, const EvaluationRequest& request,
                        const std::vector<std::string>& baselines) {
  std::vector<ComparedPolicy> entries;
  for (const TrainedPolicy& t : request.trained) {
    nlohmann::json own = config;
    own.update(policy_base_config("learned", t.text, spec));
    entries.push_back(
        {"learned", [&spec, own] { return spec.factory(own); }, t.text, "learned:" + t.path});
  }
  for (const std::string& name : baselines)
    entries.push_back({name, [&spec, config] { return spec.factory(config); }});
  return compare_report(entries, policies, request.seed);
}

// The keys that tell the tables apart (varied, or split by the env's evaluation hook).
std::vector<std::string> distinguishing_keys(const nlohmann::json& tables) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : tables.front()["config"].items()) {
    for (const nlohmann::json& t : tables) {
      if (t["config"].value(key, nlohmann::json()) != value) {
        keys.push_back(key);
        break;
      }
    }
  }
  return keys;
}

}  // namespace

TrainedPolicy trained_policy(nlohmann::json text, const std::string& path) {
  try {
    PolicyFile file = PolicyFile::from_json(text);
    return {path, std::move(text), std::move(file)};
  } catch (const ConfigError& e) {
    throw ConfigError(path + ": " + e.what());
  }
}

Evaluation evaluate_policies(const Registry& envs, const PolicyRegistry& policies,
                             const EvaluationRequest& request, const ProgressFn& progress) {
  check_one_env(request, envs);
  const EnvSpec& spec = envs.spec(request.trained.front().file.env_id);
  const std::vector<std::string> baselines =
      request.baselines.empty() ? policies.standalone_names(spec.id) : request.baselines;
  std::vector<nlohmann::json> configs;
  for (const nlohmann::json& c : config_grid(spec, shared_config(spec, request), request.vary)) {
    for (const TrainedPolicy& t : request.trained) {
      try {
        check_policy_contract(policy_base_config("learned", t.text, spec), c);
      } catch (const ConfigError& e) {
        throw ConfigError("--policy " + t.path + ": " + e.what());
      }
    }
    for (nlohmann::json& whole : spec.evaluation_configs(c))
      configs.push_back(std::move(whole));
  }
  Evaluation out{spec.id, nlohmann::json::array()};
  for (std::size_t i = 0; i < configs.size(); ++i) {
    out.tables.push_back({{"config", configs[i]},
                          {"rows", evaluate(spec, policies, configs[i], request, baselines)}});
    if (progress) progress(i + 1, configs.size());
  }
  return out;
}

std::string evaluation_text(const Registry& envs, const Evaluation& evaluation) {
  const EnvSpec& spec = envs.spec(evaluation.env_id);
  const std::vector<std::string> keys = distinguishing_keys(evaluation.tables);
  std::string out;
  for (const nlohmann::json& table : evaluation.tables) {
    std::string heading = spec.id;
    for (const std::string& key : keys) {
      const nlohmann::json value = table["config"].value(key, nlohmann::json());
      heading += " " + key + "=" +
                 (value.is_string() ? value.get<std::string>() : report_value_text(key, value));
    }
    out += comparison_text(heading, *spec.factory(table["config"]), table["rows"]);
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const nlohmann::json& table : evaluation.tables)
    rows.insert(rows.end(), table["rows"].begin(), table["rows"].end());
  return out + comparison_footer_text(*spec.factory(evaluation.tables.front()["config"]), rows);
}

}  // namespace sysgym::agents
