#include "env/reports.hpp"

#include <algorithm>

#include "base/units.hpp"

namespace sysgym {
namespace {

// An episode's summary with its return and policy: what both reports' rows start from.
nlohmann::json summary_row(const EpisodeRecord& episode) {
  nlohmann::json row = episode.summary;
  row["return"] = episode.episode_return;
  row["policy"] = episode.policy;
  return row;
}

}  // namespace

nlohmann::json run_report(const EpisodeRecord& episode, const Env& env) {
  nlohmann::json out = summary_row(episode);
  out["policy_parameters"] = episode.policy_parameters;
  out["seed"] = episode.seed;
  out["observation_hash"] = format_hex(episode.observation_hash);
  out["config"] = env.config();
  out["facts"] = env.facts();
  return out;
}

nlohmann::json compare_report(const EnvMaker& make_env, const PolicyRegistry& policies,
                              const std::vector<std::string>& names, std::uint64_t seed,
                              const std::function<void(std::size_t, std::size_t)>& progress,
                              const nlohmann::json& parameters) {
  std::unique_ptr<Env> env = make_env();
  for (const std::string& name : names)
    policies.spec(name, env->id());  // unknown names fail first
  const std::string metric = env->primary_metric().empty() ? "return" : env->primary_metric();
  std::vector<nlohmann::json> rows;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) env = make_env();
    auto policy =
        policies.make(names[i], env->id(), parameters.value(names[i], nlohmann::json::object()));
    nlohmann::json row = summary_row(run_episode(*env, *policy, names[i], seed, false));
    row["oracle"] = policies.spec(names[i], env->id()).oracle;
    rows.push_back(std::move(row));
    if (progress) progress(i + 1, names.size());
  }
  std::stable_sort(rows.begin(), rows.end(), [&](const nlohmann::json& a, const nlohmann::json& b) {
    return a[metric].get<double>() > b[metric].get<double>();
  });
  return rows;
}

}  // namespace sysgym
