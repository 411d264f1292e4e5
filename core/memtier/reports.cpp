#include "memtier/reports.hpp"

#include <algorithm>

#include "memtier/estimator.hpp"

namespace sysgym::memtier {

nlohmann::json estimate_report(const PreparedPair& pair, const HbmRanges& hbm, double hbm_factor,
                               const Trace* measured) {
  const Estimate estimate = Estimator(pair).estimate(hbm, hbm_factor);
  nlohmann::json out = {
      {"estimated_ms", estimate.estimated_ms},
      {"ddr_ms", estimate.ddr_ms},
      {"hbm_ms", estimate.hbm_ms},
      {"windows", estimate.windows},
      {"empty_windows", estimate.empty_windows},
      {"samples", estimate.samples},
      {"samples_in_hbm", estimate.samples_in_hbm},
      {"mode", window_mode_name(pair.options.mode)},
      {"unit", window_unit_name(pair.options.unit)},
      {"window_len", pair.options.window_len.value_or(0.0)},
      {"page_size", pair.options.page_size_bits},
      {"hbm_factor", hbm_factor},
      {"hbm_ranges", hbm.to_string()},
      {"hbm_bytes", hbm.total_bytes()},
  };
  if (estimate.ddr_ms != estimate.hbm_ms) {
    out["gap_closed"] =
        (estimate.ddr_ms - estimate.estimated_ms) / (estimate.ddr_ms - estimate.hbm_ms);
  }
  if (measured != nullptr) {
    const double measured_ms = static_cast<double>(measured->span_ticks()) /
                               ticks_per_ms(measured->time_base, pair.options.cpu_cycles_per_ms);
    out["measured_ms"] = measured_ms;
    out["error"] = relative_error(estimate.estimated_ms, measured_ms);
  }
  return out;
}

nlohmann::json run_report(const EpisodeRecord& episode, const MemtierEnv& env) {
  nlohmann::json out = episode.summary.to_json();
  out["policy"] = episode.policy;
  out["policy_parameters"] = episode.policy_parameters;
  out["seed"] = episode.seed;
  out["observation_hash"] = format_hex(episode.observation_hash);
  out["config"] = env.config();
  out["facts"] = env.facts();
  return out;
}

nlohmann::json compare_report(const nlohmann::json& config, PairSource& traces,
                              const PolicyRegistry& policies, const std::vector<std::string>& names,
                              std::uint64_t seed,
                              const std::function<void(std::size_t, std::size_t)>& progress,
                              const nlohmann::json& parameters) {
  for (const std::string& name : names)
    policies.spec(name);  // unknown names fail first
  std::vector<nlohmann::json> rows;
  for (std::size_t i = 0; i < names.size(); ++i) {
    MemtierEnv env(config, traces);
    auto policy = policies.make(names[i], parameters.value(names[i], nlohmann::json::object()));
    nlohmann::json row = run_episode(env, *policy, names[i], seed, false).summary.to_json();
    row["policy"] = names[i];
    row["oracle"] = policies.spec(names[i]).oracle;
    rows.push_back(std::move(row));
    if (progress) progress(i + 1, names.size());
  }
  std::stable_sort(rows.begin(), rows.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return a["estimated_ms"].get<double>() < b["estimated_ms"].get<double>();
  });
  return rows;
}

}  // namespace sysgym::memtier
