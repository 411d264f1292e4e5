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

void sort_rows(std::vector<nlohmann::json>& rows, const Env::Ranking& ranking) {
  const std::string key = ranking.key.empty() ? "return" : ranking.key;
  std::stable_sort(rows.begin(), rows.end(), [&](const nlohmann::json& a, const nlohmann::json& b) {
    const double x = a[key].get<double>(), y = b[key].get<double>();
    return ranking.higher_is_better ? x > y : x < y;
  });
}

nlohmann::json run_report(const EpisodeRecord& episode, const Env& env) {
  nlohmann::json out = summary_row(episode);
  out["policy_parameters"] = episode.policy_parameters;
  out["seed"] = episode.seed;
  out["observation_hash"] = format_hex(episode.observation_hash);
  out["config"] = env.config();
  out["facts"] = env.facts();
  return out;
}

nlohmann::json compare_report(const std::vector<ComparedPolicy>& entries,
                              const PolicyRegistry& policies, std::uint64_t seed,
                              const std::function<void(std::size_t, std::size_t)>& progress) {
  if (entries.empty()) return nlohmann::json::array();
  std::unique_ptr<Env> env = entries.front().make_env();
  for (const ComparedPolicy& entry : entries)
    policies.spec(entry.policy, env->id());  // unknown names fail first
  const Env::Ranking ranking = env->ranking();
  std::vector<nlohmann::json> rows;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const ComparedPolicy& entry = entries[i];
    if (i > 0) env = entry.make_env();
    auto policy = policies.make(entry.policy, env->id(), entry.parameters);
    nlohmann::json row = summary_row(run_episode(*env, *policy, entry.policy, seed, false));
    if (!entry.label.empty()) row["policy"] = entry.label;
    row["oracle"] = policies.spec(entry.policy, env->id()).oracle;
    rows.push_back(std::move(row));
    if (progress) progress(i + 1, entries.size());
  }
  sort_rows(rows, ranking);
  return rows;
}

nlohmann::json compare_report(const EnvMaker& make_env, const PolicyRegistry& policies,
                              const std::vector<std::string>& names, std::uint64_t seed,
                              const std::function<void(std::size_t, std::size_t)>& progress,
                              const nlohmann::json& parameters) {
  std::vector<ComparedPolicy> entries;
  entries.reserve(names.size());
  for (const std::string& name : names)
    entries.push_back({name, make_env, parameters.value(name, nlohmann::json::object()), ""});
  return compare_report(entries, policies, seed, progress);
}

}  // namespace sysgym
