#include "memtier/reports.hpp"

#include <cstdio>

#include "base/append_format.hpp"
#include "base/units.hpp"
#include "env/episode.hpp"
#include "memtier/estimator.hpp"
#include "memtier/memtier_env.hpp"

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

std::string estimate_report_text(const nlohmann::json& report, const std::string& measured_name) {
  auto number = [&](const char* key) { return report.at(key).get<double>(); };
  const std::string unit = report.at("unit");
  const std::string ranges = report.at("hbm_ranges");
  std::string out;
  append_format(
      out, "windows: %zu (%zu without DDR samples), mode %s, unit %s, length %.6g %s, page %s\n",
      report.at("windows").get<std::size_t>(), report.at("empty_windows").get<std::size_t>(),
      report.at("mode").get<std::string>().c_str(), unit.c_str(), number("window_len"),
      unit.c_str(), format_bytes(1ull << report.at("page_size").get<int>()).c_str());
  append_format(out, "  DDR run          %14.3f ms\n", number("ddr_ms"));
  append_format(out, "  HBM run          %14.3f ms\n", number("hbm_ms"));
  const double samples = number("samples");
  append_format(out, "  estimated        %14.3f ms   HBM ranges: %s (%s, %.1f %% of samples)\n",
                number("estimated_ms"), ranges.empty() ? "none" : ranges.c_str(),
                format_bytes(report.at("hbm_bytes").get<std::uint64_t>()).c_str(),
                samples == 0 ? 0.0 : 100.0 * number("samples_in_hbm") / samples);
  if (report.contains("gap_closed"))
    append_format(out, "  gap closed       %14.1f %%\n", 100.0 * number("gap_closed"));
  if (report.contains("measured_ms")) {
    append_format(out, "  measured         %14.3f ms   (%s)\n", number("measured_ms"),
                  measured_name.c_str());
    append_format(out, "  relative error   %14.2f %%\n", 100.0 * number("error"));
  }
  return out;
}

nlohmann::json headroom_report(const Registry& envs, const PolicyRegistry& policies,
                               const std::vector<std::string>& traces,
                               const nlohmann::json& capacity) {
  nlohmann::json rows = nlohmann::json::array();
  const auto oracle = policies.make("static-oracle", kMemtierId);
  for (const std::string& trace : traces) {
    const auto env = envs.make(
        kMemtierId, {{"trace", trace}, {"hbm_capacity", capacity}, {"episode_length", 0}});
    const nlohmann::json summary = run_episode(*env, *oracle, "static-oracle", 0, false).summary;
    const double ddr = summary.at("ddr_ms").get<double>();
    const double hbm = summary.at("hbm_ms").get<double>();
    rows.push_back({{"trace", trace},
                    {"windows", summary.at("windows")},
                    {"ddr_ms", ddr},
                    {"hbm_ms", hbm},
                    {"gap_share", ddr > 0 ? (ddr - hbm) / ddr : 0.0},
                    {"static_oracle_gap_closed", summary.at("gap_closed")},
                    {"hbm_capacity", capacity}});
  }
  return rows;
}

}  // namespace sysgym::memtier
