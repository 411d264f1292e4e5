#include "agents/held_out.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "base/append_format.hpp"
#include "base/error.hpp"
#include "base/quote.hpp"
#include "env/report_text.hpp"

namespace sysgym::agents {
namespace {

// How far below the best other policy's metric still counts as doing no harm.
constexpr double kWithin = 0.01;

const nlohmann::json& field(const nlohmann::json& object, const std::string& key,
                            const std::string& where) {
  if (!object.is_object() || !object.contains(key))
    throw ConfigError(where + ": no \"" + key + "\" in its manifest");
  return object[key];
}

std::vector<std::string> strings(const nlohmann::json& list, const std::string& what) {
  if (!list.is_array() || list.empty())
    throw ConfigError(what + " must be a non-empty list of strings");
  std::vector<std::string> out;
  for (const nlohmann::json& item : list) {
    if (!item.is_string()) throw ConfigError(what + " must be a non-empty list of strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

// A policy's other training seeds are files named with `.seedN` before `.json`.
ShippedPolicy shipped_policy(const nlohmann::json& p, const std::string& where) {
  const nlohmann::json& name = field(p, "file", where + ": a policy");
  const nlohmann::json label = p.value("label", name);
  const nlohmann::json seeds = p.value("seeds", nlohmann::json::array({0}));
  if (!name.is_string() || !label.is_string() || !seeds.is_array() || seeds.empty()) {
    throw ConfigError(where + ": a policy's file and label must be strings, its seeds a list");
  }
  const std::string file = name.get<std::string>();
  ShippedPolicy out{label.get<std::string>(), {file}};
  for (std::size_t i = 1; i < seeds.size(); ++i) {
    const std::string stem = file.ends_with(".json") ? file.substr(0, file.size() - 5) : file;
    out.files.push_back(stem + ".seed" + seeds[i].dump() + ".json");
  }
  return out;
}

// A manifest's `vary` entry as --vary takes it: KEY=[JSON array].
std::string vary_text(const std::string& key, const nlohmann::json& values,
                      const std::string& where) {
  if (!values.is_array() || values.empty())
    throw ConfigError(where + ": vary." + key + " must be a non-empty list");
  return key + "=" + values.dump();
}

// What a policy was trained to achieve (the keys a policy's task sets): policies that differ
// are scored on different tasks, so in different tables.
std::string task_of(const EnvSpec& spec, const TrainedPolicy& t) {
  nlohmann::json task = nlohmann::json::object();
  for (const ConfigKey& key : spec.schema.keys()) {
    if (key.policy_task && t.file.env_config.contains(key.name))
      task[key.name] = t.file.env_config[key.name];
  }
  return task.dump();
}

// Every combination of each policy's parameter values, the policies and parameters in the
// manifest's (sorted) key order.
std::vector<std::pair<std::string, nlohmann::json>> hindsight_candidates(const nlohmann::json& grid,
                                                                         const std::string& where) {
  if (!grid.is_object() || grid.empty())
    throw ConfigError(where + ": hindsight.grid must map policies to {parameter: [values]}");
  // A grid entry (a policy, or one of its parameters) that breaks `rule`.
  const auto refuse = [&where](const std::string& policy, const std::string& parameter,
                               const char* rule) {
    std::string entry = where + ": hindsight.grid." + policy;
    if (!parameter.empty()) entry += "." + parameter;
    return ConfigError(entry + " " + rule);
  };
  std::vector<std::pair<std::string, nlohmann::json>> out;
  for (const auto& [policy, parameters] : grid.items()) {
    if (!parameters.is_object()) throw refuse(policy, "", "must map parameters to lists");
    std::vector<nlohmann::json> combos = {nlohmann::json::object()};
    for (const auto& [name, values] : parameters.items()) {
      if (!values.is_array() || values.empty())
        throw refuse(policy, name, "must be a non-empty list");
      std::vector<nlohmann::json> longer;
      for (const nlohmann::json& combo : combos) {
        for (const nlohmann::json& value : values) {
          nlohmann::json next = combo;
          next[name] = value;
          longer.push_back(std::move(next));
        }
      }
      combos = std::move(longer);
    }
    for (nlohmann::json& combo : combos)
      out.emplace_back(policy, std::move(combo));
  }
  return out;
}

struct Standing {
  std::string row;
  std::size_t beats = 0, within = 0;
  double worst_shortfall = 0;  // how far the best other policy is ahead where it is most
  std::string worst_setting;
  double worst_run = 0;
  double mean = 0, best_other_mean = 0;
  // Sums over the tables that have both a hindsight and a `from` row.
  double toward_hindsight = 0, hindsight_span = 0;
  std::vector<const nlohmann::json*> played;  // the tables the row is in
};

// A row's metric by its label, or NaN when the table has none.
double metric_of(const nlohmann::json& table, const std::string& policy,
                 const std::string& metric) {
  for (const nlohmann::json& row : table["rows"]) {
    if (row["policy"] == policy) return row[metric].get<double>();
  }
  return std::nan("");
}

// The config keys that tell a result's tables apart, the split's key first.
std::vector<std::string> split_keys(const nlohmann::json& tables, const std::string& key) {
  std::vector<std::string> keys = {key};
  for (std::string& k : distinguishing_keys(tables)) {
    if (k != key) keys.push_back(std::move(k));
  }
  return keys;
}

std::string setting_name(const nlohmann::json& config, const std::vector<std::string>& keys) {
  std::string out;
  for (const std::string& key : keys) {
    if (!config.contains(key)) continue;
    out += (out.empty() ? "" : " ") + key + "=" + setting_value_text(config[key]);
  }
  return out;
}

// A row of a policy file (shipped or given), as evaluate_policies labels it.
bool learned(const nlohmann::json& row) {
  return row["policy"].get<std::string>().starts_with("learned:");
}

// A row that neither learns nor knows the future: what a learned row is judged against.
bool is_other_row(const nlohmann::json& row) {
  return !row.value("oracle", false) && !learned(row);
}

// The label of the row with the highest `metric` among those `counts` keeps, or null.
template <typename Keep>
nlohmann::json best_row(const nlohmann::json& rows, const std::string& metric, Keep counts) {
  const nlohmann::json* best = nullptr;
  for (const nlohmann::json& row : rows) {
    if (counts(row) &&
        (best == nullptr || row[metric].get<double>() > (*best)[metric].get<double>()))
      best = &row;
  }
  return best == nullptr ? nlohmann::json() : (*best)["policy"];
}

// Marks each table's best row that neither learns nor knows the future (`best_other`), which
// every learned row is judged against, and its best oracle (`best_oracle`); null when none.
void mark_best_rows(nlohmann::json& tables, const std::string& metric) {
  for (nlohmann::json& table : tables) {
    table["best_other"] = best_row(table["rows"], metric, is_other_row);
    table["best_oracle"] = best_row(table["rows"], metric, [](const nlohmann::json& row) {
      return row.value("oracle", false);
    });
  }
}

// The policy that neither learns nor knows the future with the best mean over `tables` (one
// choice for them all, where each table's best other is chosen per table with its result known),
// and where `row` stands against it: tables within kWithin of it, and the widest shortfall.
nlohmann::json against_single_other(const std::vector<const nlohmann::json*>& tables,
                                    const std::string& row, const std::string& metric,
                                    const std::vector<std::string>& keys) {
  std::map<std::string, std::pair<std::size_t, double>> sums;  // tables present in, metric sum
  for (const nlohmann::json* table : tables) {
    for (const nlohmann::json& r : (*table)["rows"]) {
      if (!is_other_row(r)) continue;
      auto& [n, sum] = sums[r["policy"].get<std::string>()];
      ++n;
      sum += r[metric].get<double>();
    }
  }
  const std::string* single = nullptr;
  double single_mean = 0;
  for (const auto& [name, count_sum] : sums) {
    const double mean = count_sum.second / static_cast<double>(tables.size());
    if (count_sum.first == tables.size() && (single == nullptr || mean > single_mean)) {
      single = &name;
      single_mean = mean;
    }
  }
  if (single == nullptr) return nullptr;
  std::size_t within = 0;
  double shortfall = 0;
  std::string where;
  for (const nlohmann::json* table : tables) {
    const double theirs = metric_of(*table, *single, metric);
    const double mine = metric_of(*table, row, metric);
    if (mine >= theirs - kWithin) ++within;
    if (theirs - mine > shortfall) {
      shortfall = theirs - mine;
      where = setting_name((*table)["config"], keys);
    }
  }
  return {{"policy", *single},
          {"mean", single_mean},
          {"within_0_01", within},
          {"worst_shortfall", shortfall},
          {"worst_setting", where}};
}

// Where each learned row stands against its table's best other row (and on the way from the
// `from` row to the hindsight row, where the protocol has one).
nlohmann::json standings(const nlohmann::json& tables, const std::string& metric,
                         const std::vector<std::string>& keys, const SplitProtocol& protocol) {
  std::map<std::string, Standing> by_row;
  std::vector<std::string> order;
  for (const nlohmann::json& table : tables) {
    if (table["best_other"].is_null()) continue;
    const double best = metric_of(table, table["best_other"].get<std::string>(), metric);
    const double hindsight = metric_of(table, protocol.hindsight.label, metric);
    const double from = metric_of(table, protocol.hindsight_from, metric);
    for (const nlohmann::json& row : table["rows"]) {
      if (!learned(row)) continue;
      const std::string name = row["policy"].get<std::string>();
      auto [it, added] = by_row.try_emplace(name);
      if (added) order.push_back(name);
      Standing& s = it->second;
      const double mine = row[metric].get<double>();
      const double low = row.value(metric + "_min", mine);
      s.row = name;
      s.worst_run = s.played.empty() ? low : std::min(s.worst_run, low);
      s.played.push_back(&table);
      s.mean += mine;
      s.best_other_mean += best;
      if (mine > best) ++s.beats;
      if (mine >= best - kWithin) ++s.within;
      if (!std::isnan(hindsight) && !std::isnan(from)) {
        s.toward_hindsight += mine - from;
        s.hindsight_span += hindsight - from;
      }
      if (best - mine > s.worst_shortfall) {
        s.worst_shortfall = best - mine;
        s.worst_setting = setting_name(table["config"], keys);
      }
    }
  }
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& name : order) {
    const Standing& s = by_row.at(name);
    const auto n = static_cast<double>(s.played.size());
    nlohmann::json line = {{"policy", s.row},
                           {"tables", s.played.size()},
                           {"beats_best_other", s.beats},
                           {"within_0_01_of_best_other", s.within},
                           {"mean", s.mean / n},
                           {"best_other_mean", s.best_other_mean / n},
                           {"worst_shortfall", s.worst_shortfall},
                           {"worst_setting", s.worst_setting},
                           {"worst_run", s.worst_run}};
    if (s.hindsight_span > 0) line["hindsight_share"] = s.toward_hindsight / s.hindsight_span;
    line["best_single_other"] = against_single_other(s.played, name, metric, keys);
    out.push_back(std::move(line));
  }
  return out;
}

}  // namespace

SplitProtocol split_protocol(const nlohmann::json& manifest, const std::string& split,
                             const std::string& where) {
  if (split != "train" && split != "held-out")
    throw ConfigError("no split " + quote(split) + " in " + where + ": train or held-out");
  const nlohmann::json& splits = field(manifest, "split", where);
  SplitProtocol out;
  out.split = split;
  const nlohmann::json& key = field(splits, "key", where + ": split");
  if (!key.is_string()) throw ConfigError(where + ": split.key must be a config key");
  out.key = key.get<std::string>();
  const std::string name = split == "held-out" ? "held_out" : "train";
  out.members = strings(field(splits, name, where + ": split"), where + ": split." + name);
  out.settings = manifest.value("settings", nlohmann::json::object());
  if (!out.settings.is_object()) throw ConfigError(where + ": settings must be an object");
  const nlohmann::json grid = manifest.value("vary", nlohmann::json::object());
  if (!grid.is_object()) throw ConfigError(where + ": vary must be an object of lists");
  for (const auto& [k, values] : grid.items())
    out.vary.push_back(vary_text(k, values, where));
  const nlohmann::json& shipped = field(manifest, "policies", where);
  if (!shipped.is_array()) throw ConfigError(where + ": policies must be a list");
  for (const nlohmann::json& p : shipped)
    out.policies.push_back(shipped_policy(p, where));
  if (manifest.contains("hindsight")) {
    const nlohmann::json& h = manifest["hindsight"];
    const nlohmann::json& label = field(h, "label", where + ": hindsight");
    const nlohmann::json& from = field(h, "from", where + ": hindsight");
    if (!label.is_string() || !from.is_string())
      throw ConfigError(where + ": hindsight.label and hindsight.from must be strings");
    out.hindsight = {label.get<std::string>(),
                     hindsight_candidates(field(h, "grid", where + ": hindsight"), where)};
    out.hindsight_from = from.get<std::string>();
  }
  return out;
}

nlohmann::json evaluate_split(const Registry& envs, const PolicyRegistry& policies,
                              const SplitRequest& request, const ProgressFn& progress) {
  if (request.trained.empty()) throw ConfigError("the split has no policies to evaluate");
  const EnvSpec& spec = envs.spec(request.trained.front().file.env_id);
  // One evaluation per task, in the order the policies come.
  std::vector<std::string> tasks;
  std::map<std::string, EvaluationRequest> by_task;
  for (const TrainedPolicy& t : request.trained) {
    const std::string task = task_of(spec, t);
    auto [it, added] = by_task.try_emplace(task);
    if (added) {
      tasks.push_back(task);
      EvaluationRequest& r = it->second;
      r.env = spec.id;
      r.config = request.protocol.settings;
      r.vary.push_back(request.protocol.key + "=" +
                       nlohmann::json(request.protocol.members).dump());
      r.vary.insert(r.vary.end(), request.protocol.vary.begin(), request.protocol.vary.end());
      r.baselines = request.baselines;
      r.seed = request.seed;
      r.seeds = request.seeds;
      r.pool_expansions = true;
      r.parallel = request.parallel;
      r.hindsight = request.protocol.hindsight;
    }
    it->second.trained.push_back(t);
  }
  nlohmann::json tables = nlohmann::json::array();
  std::string metric;
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const auto share = [&](std::uint64_t done, std::uint64_t total) {
      // Each task's runs are as many as the first's: count them all as one progress.
      if (progress) progress(offset + done, total * tasks.size());
      if (done == total) offset += total;
    };
    const Evaluation e = evaluate_policies(envs, policies, by_task.at(tasks[i]), share);
    tables.insert(tables.end(), e.tables.begin(), e.tables.end());
    metric = e.metric;
  }
  mark_best_rows(tables, metric);
  const std::vector<std::string> keys = split_keys(tables, request.protocol.key);
  nlohmann::json out = {{"env", spec.id},
                        {"split", request.protocol.split},
                        {"key", request.protocol.key},
                        {"members", request.protocol.members},
                        {"metric", metric},
                        {"seed", request.seed},
                        {"seeds", request.seeds},
                        {"tables", tables},
                        {"summary", standings(tables, metric, keys, request.protocol)}};
  const HindsightTuning& h = request.protocol.hindsight;
  if (!h.label.empty()) {
    out["hindsight"] = {{"label", h.label},
                        {"from", request.protocol.hindsight_from},
                        {"candidates", h.candidates.size()}};
  }
  return out;
}

std::string split_text(const Registry& envs, const nlohmann::json& result) {
  const EnvSpec& spec = envs.spec(result["env"].get<std::string>());
  const std::string metric = result["metric"].get<std::string>();
  const nlohmann::json& tables = result["tables"];
  const std::vector<std::string> keys = split_keys(tables, result["key"].get<std::string>());
  // An env's ranking does not depend on its config.
  const std::unique_ptr<Env> env = spec.factory(tables.front()["config"]);
  const Env::Ranking ranking = env->ranking();
  std::string out;
  for (const nlohmann::json& table : tables) {
    std::vector<std::string> columns;
    if (!ranking.key.empty() && ranking.key != metric) columns.push_back(ranking.key);
    columns.insert(columns.end(), {metric, metric + "_min", metric + "_max", "runs"});
    out += spec.id + " " + setting_name(table["config"], keys) + ":\n" +
           report_table_text(table["rows"], columns, ranking);
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const nlohmann::json& table : tables)
    rows.insert(rows.end(), table["rows"].begin(), table["rows"].end());
  out += comparison_footer_text(*env, rows);
  std::string members;
  for (const nlohmann::json& m : result["members"])
    members += (members.empty() ? "" : ", ") + setting_value_text(m);
  append_format(out, "\n%s split of %s (%s: %s), %llu seeds from %llu; each table pools its runs\n",
                result["split"].get<std::string>().c_str(), spec.id.c_str(),
                result["key"].get<std::string>().c_str(), members.c_str(),
                static_cast<unsigned long long>(result["seeds"].get<std::uint64_t>()),
                static_cast<unsigned long long>(result["seed"].get<std::uint64_t>()));
  for (const nlohmann::json& s : result["summary"]) {
    append_format(out,
                  "  %s: %s %.4g (best other policy %.4g); beats it in %zu of %zu tables, "
                  "within %.2g in %zu",
                  s["policy"].get<std::string>().c_str(), metric.c_str(), s["mean"].get<double>(),
                  s["best_other_mean"].get<double>(), s["beats_best_other"].get<std::size_t>(),
                  s["tables"].get<std::size_t>(), kWithin,
                  s["within_0_01_of_best_other"].get<std::size_t>());
    if (s["worst_shortfall"].get<double>() > 0) {
      append_format(out, "; furthest behind at %s, by %.4g",
                    s["worst_setting"].get<std::string>().c_str(),
                    s["worst_shortfall"].get<double>());
    }
    append_format(out, "; worst run %.4g", s["worst_run"].get<double>());
    if (s.contains("hindsight_share")) {
      append_format(out, "; goes %.3g of the way from %s to %s", s["hindsight_share"].get<double>(),
                    result["hindsight"]["from"].get<std::string>().c_str(),
                    result["hindsight"]["label"].get<std::string>().c_str());
    }
    if (const nlohmann::json& single = s.value("best_single_other", nlohmann::json());
        !single.is_null()) {
      append_format(out,
                    "; against the best single other policy, %s (mean %.4g): within %.2g in %zu",
                    single["policy"].get<std::string>().c_str(), single["mean"].get<double>(),
                    kWithin, single["within_0_01"].get<std::size_t>());
      if (single["worst_shortfall"].get<double>() > 0)
        append_format(out, ", furthest behind by %.4g", single["worst_shortfall"].get<double>());
    }
    out += "\n";
  }
  return out;
}

}  // namespace sysgym::agents
