#include "agents/evaluation.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <set>

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

// A hindsight candidate's row label: the policy and its parameters.
std::string candidate_label(const HindsightTuning& h, const std::string& policy,
                            const nlohmann::json& parameters) {
  return h.label + ":" + policy + parameters.dump();
}

// Replaces the candidates' rows of one run by the best of them (the first of equals), as the
// oracle row the hindsight tuning is.
void keep_best_candidate(nlohmann::json& rows, const HindsightTuning& h,
                         const std::string& metric) {
  const std::string prefix = h.label + ":";
  nlohmann::json kept = nlohmann::json::array();
  nlohmann::json best;
  for (nlohmann::json& row : rows) {
    const std::string policy = row["policy"].get<std::string>();
    if (!policy.starts_with(prefix)) {
      kept.push_back(std::move(row));
    } else if (best.is_null() || row[metric].get<double>() > best[metric].get<double>()) {
      best = std::move(row);
    }
  }
  if (best.is_null()) return;
  best["tuned"] = best["policy"].get<std::string>().substr(prefix.size());
  best["policy"] = h.label;
  best["oracle"] = true;  // chosen with the run's result known
  kept.push_back(std::move(best));
  rows = std::move(kept);
}

nlohmann::json evaluate(const EnvSpec& spec, const PolicyRegistry& policies,
                        const nlohmann::json& config, const EvaluationRequest& request,
                        const std::vector<std::string>& baselines, std::uint64_t seed,
                        const std::string& metric) {
  std::vector<ComparedPolicy> entries;
  for (const TrainedPolicy& t : request.trained) {
    nlohmann::json own = config;
    own.update(policy_base_config("learned", t.text, spec));
    entries.push_back({"learned", [&spec, own] { return spec.factory(own); }, t.text, t.row});
  }
  const auto same_config = [&spec, config] { return spec.factory(config); };
  for (const std::string& name : baselines)
    entries.push_back({name, same_config});
  const HindsightTuning& h = request.hindsight;
  for (const auto& [name, parameters] : h.candidates)
    entries.push_back({name, same_config, parameters, candidate_label(h, name, parameters)});
  nlohmann::json rows = compare_report(entries, policies, seed);
  if (!h.candidates.empty()) keep_best_candidate(rows, h, metric);
  return rows;
}

// The runs of one table, pooled by row label: a label run once keeps its row as it is; one run
// several times gets the mean of each number (integers stay integers, rounded), `runs`, and the
// metric's extremes.
class RowPool {
 public:
  explicit RowPool(std::string metric) : metric_(std::move(metric)) {}

  void add(const nlohmann::json& rows) {
    for (const nlohmann::json& row : rows) {
      const std::string label = row["policy"].get<std::string>();
      auto [it, added] = pooled_.try_emplace(label);
      if (added) order_.push_back(label);
      Pooled& p = it->second;
      if (p.runs++ == 0) p.first = row;
      for (const auto& [key, value] : row.items()) {
        if (!value.is_number()) continue;
        p.sums[key] += value.get<double>();
        if (!value.is_number_unsigned()) p.real.insert(key);
      }
      if (row.contains(metric_)) {
        const double m = row[metric_].get<double>();
        p.min = p.runs == 1 ? m : std::min(p.min, m);
        p.max = p.runs == 1 ? m : std::max(p.max, m);
      }
    }
  }

  nlohmann::json rows(const Env::Ranking& ranking) const {
    std::vector<nlohmann::json> out;
    for (const std::string& label : order_) {
      const Pooled& p = pooled_.at(label);
      nlohmann::json row = p.first;
      if (p.runs > 1) {
        const auto n = static_cast<double>(p.runs);
        for (const auto& [key, sum] : p.sums) {
          if (p.real.contains(key)) {
            row[key] = sum / n;
          } else {
            row[key] = static_cast<std::uint64_t>(std::llround(sum / n));
          }
        }
        row["runs"] = p.runs;
        if (row.contains(metric_)) {
          row[metric_ + "_min"] = p.min;
          row[metric_ + "_max"] = p.max;
        }
      }
      out.push_back(std::move(row));
    }
    sort_rows(out, ranking);
    return out;
  }

 private:
  struct Pooled {
    nlohmann::json first;
    std::map<std::string, double> sums;
    std::set<std::string> real;  // keys with a value other than a whole number >= 0
    std::size_t runs = 0;
    double min = 0, max = 0;
  };
  std::string metric_;
  std::vector<std::string> order_;
  std::map<std::string, Pooled> pooled_;
};

// One table: the config it shows and the configs whose runs it pools.
struct Table {
  nlohmann::json config;
  std::vector<nlohmann::json> runs;
};

// A grid point's table when its expansions are pooled: their config, with the grid point's
// value where they differ (the problem set's name, not its first problem).
nlohmann::json pooled_config(const nlohmann::json& point, const std::vector<nlohmann::json>& all) {
  nlohmann::json shown = all.front();
  for (const auto& item : all.front().items()) {
    const std::string& key = item.key();
    const nlohmann::json& value = item.value();
    const bool same = std::all_of(all.begin(), all.end(), [&](const nlohmann::json& c) {
      return c.value(key, nlohmann::json()) == value;
    });
    if (same) continue;
    if (point.contains(key)) {
      shown[key] = point[key];
    } else {
      shown.erase(key);
    }
  }
  return shown;
}

}  // namespace

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

TrainedPolicy trained_policy(nlohmann::json text, const std::string& path) {
  try {
    PolicyFile file = PolicyFile::from_json(text);
    return {path, std::move(text), std::move(file), "learned:" + path};
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
  if (request.seeds == 0) throw ConfigError("--seeds must be at least 1");
  std::vector<Table> tables;
  std::uint64_t total = 0;
  for (const nlohmann::json& c : config_grid(spec, shared_config(spec, request), request.vary)) {
    for (const TrainedPolicy& t : request.trained) {
      try {
        check_policy_contract(policy_base_config("learned", t.text, spec), c);
      } catch (const ConfigError& e) {
        throw ConfigError("--policy " + t.path + ": " + e.what());
      }
    }
    std::vector<nlohmann::json> whole = spec.evaluation_configs(c);
    total += whole.size() * request.seeds;
    if (request.pool_expansions && whole.size() > 1) {
      tables.push_back({pooled_config(c, whole), std::move(whole)});
    } else {
      for (nlohmann::json& one : whole)
        tables.push_back({one, {one}});
    }
  }
  // Every run of every table, in table order, then pooled in that order whatever ran first.
  struct Run {
    const nlohmann::json* config;
    std::uint64_t seed;
  };
  std::vector<Run> runs;
  runs.reserve(total);
  for (const Table& table : tables) {
    for (const nlohmann::json& config : table.runs) {
      for (std::uint64_t s = 0; s < request.seeds; ++s)
        runs.push_back({&config, request.seed + s});
    }
  }
  // An env's metric and ranking do not depend on its config.
  const std::unique_ptr<Env> env = spec.factory(tables.front().runs.front());
  Evaluation out{spec.id, nlohmann::json::array(), env->primary_metric(), env->ranking()};
  std::vector<nlohmann::json> results(runs.size());
  std::mutex progress_mutex;
  std::uint64_t done = 0;
  const auto run = [&](std::size_t i) {
    results[i] =
        evaluate(spec, policies, *runs[i].config, request, baselines, runs[i].seed, out.metric);
    const std::lock_guard<std::mutex> lock(progress_mutex);
    ++done;
    if (progress) progress(done, total);
  };
  if (request.parallel) {
    request.parallel(runs.size(), run);
  } else {
    for (std::size_t i = 0; i < runs.size(); ++i)
      run(i);
  }
  std::size_t next = 0;
  for (const Table& table : tables) {
    RowPool pool(out.metric);
    for (std::size_t r = 0; r < table.runs.size() * request.seeds; ++r)
      pool.add(results[next++]);
    out.tables.push_back({{"config", table.config}, {"rows", pool.rows(out.ranking)}});
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
