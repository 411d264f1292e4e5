#include "env/report_text.hpp"

#include <algorithm>
#include <cstdio>

#include "base/append_format.hpp"
#include "base/quote.hpp"
#include "base/units.hpp"

namespace sysgym {
namespace {

// KEY=V1,V2,... with the first 8 values of a longer list and how many there are in all.
std::string shortened_vary(const std::string& text) {
  constexpr std::size_t kShown = 8;
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos) return printable(text);
  std::size_t values = 1, cut = std::string::npos;
  for (std::size_t i = equals; i < text.size(); ++i) {
    if (text[i] != ',') continue;
    if (values == kShown) cut = i;
    ++values;
  }
  if (cut == std::string::npos) return printable(text);
  return printable(text.substr(0, cut)) + ", ... (" + std::to_string(values) + " values)";
}

void append_value(std::string& out, const std::string& key, const nlohmann::json& value,
                  const std::string& metric) {
  append_format(out, "  %-24s %14s%s\n", key.c_str(), report_value_text(key, value).c_str(),
                key == metric ? "   (primary metric: higher is better)" : "");
}

}  // namespace

std::string report_value_text(const std::string& key, const nlohmann::json& value) {
  if ((key.ends_with("_bytes") || key.starts_with("bytes_")) && value.is_number_unsigned())
    return format_bytes(value.get<std::uint64_t>());
  if (value.is_number_float()) {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.6g", value.get<double>());
    return buffer;
  }
  return value.dump();
}

std::string setting_value_text(const nlohmann::json& value) {
  return value.is_string() ? printable(value.get<std::string>()) : value.dump();
}

std::string report_table_text(const nlohmann::json& rows, std::vector<std::string> columns,
                              const Env::Ranking& ranking) {
  const std::string ranked = ranking.key.empty() ? "return" : ranking.key;
  std::string out;
  if (rows.empty()) return out;
  if (columns.empty()) {
    for (const auto& [key, value] : rows.front().items()) {
      if (value.is_number() && key != "return") columns.push_back(key);
    }
    columns.emplace_back("return");
  }
  // The ranked column's title is marked; every column is at least 12 wide and fits its title.
  std::vector<std::string> titles;
  std::vector<int> widths;
  for (const std::string& column : columns) {
    titles.push_back(column != ranked ? column : column + (ranking.higher_is_better ? " ^" : " v"));
    widths.push_back(static_cast<int>(std::max<std::size_t>(12, titles.back().size())));
  }
  std::size_t width = 6;
  for (const nlohmann::json& row : rows)
    width = std::max(width, row["policy"].get<std::string>().size() + 2);
  append_format(out, "%-*s", static_cast<int>(width), "policy");
  for (std::size_t c = 0; c < columns.size(); ++c)
    append_format(out, " %*s", widths[c], titles[c].c_str());
  out += '\n';
  for (const nlohmann::json& row : rows) {
    const std::string name =
        row["policy"].get<std::string>() + (row.value("oracle", false) ? " *" : "");
    append_format(out, "%-*s", static_cast<int>(width), name.c_str());
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const std::string text =
          row.contains(columns[c]) ? report_value_text(columns[c], row[columns[c]]) : "-";
      append_format(out, " %*s", widths[c], text.c_str());
    }
    out += '\n';
  }
  return out;
}

std::string comparison_text(const std::string& heading, const Env& env,
                            const nlohmann::json& rows) {
  std::string line = heading + ":";
  const nlohmann::json facts = env.facts();
  for (const auto& [key, value] : facts.items())
    line += (line.back() == ':' ? " " : ", ") + key + " " + report_value_text(key, value);
  return line + "\n" + report_table_text(rows, env.report_columns(), env.ranking());
}

std::string comparison_footer_text(const Env& env, const nlohmann::json& rows) {
  const Env::Ranking ranking = env.ranking();
  const bool oracles = std::any_of(rows.begin(), rows.end(), [](const nlohmann::json& row) {
    return row.is_object() && row.value("oracle", false);
  });
  std::string out = oracles ? "* oracle (knows the future). " : "";
  append_format(out, "Sorted best first by %s (%s).\n",
                ranking.key.empty() ? "return" : ranking.key.c_str(),
                ranking.higher_is_better ? "^ higher is better" : "v lower is better");
  return out;
}

std::string run_report_text(const nlohmann::json& report, const std::string& id,
                            const std::string& metric) {
  std::string out;
  append_format(out, "%s on %s (seed %llu): return %.6g\n",
                report["policy"].get<std::string>().c_str(), id.c_str(),
                static_cast<unsigned long long>(report["seed"].get<std::uint64_t>()),
                report["return"].get<double>());
  // A learned policy says what it was trained for: the settings its file holds it to.
  const nlohmann::json trained_for = report.value("policy_parameters", nlohmann::json::object())
                                         .value("trained_for", nlohmann::json::object());
  if (!trained_for.empty()) {
    out += "trained for:";
    for (const auto& [key, value] : trained_for.items())
      out += " " + key + "=" + setting_value_text(value);
    out += "\n";
  }
  // And on what: its training --vary, a long list of values shortened.
  const nlohmann::json trained_on = report.value("policy_parameters", nlohmann::json::object())
                                        .value("trained_on", nlohmann::json::array());
  for (const nlohmann::json& text : trained_on)
    out += "trained on: " + shortened_vary(text.get<std::string>()) + "\n";
  out += "facts:\n";
  for (const auto& [key, value] : report["facts"].items())
    append_value(out, key, value, "");
  out += "summary:\n";
  for (const auto& [key, value] : report.items()) {
    if (value.is_number() && key != "return" && key != "seed")
      append_value(out, key, value, metric);
  }
  return out;
}

}  // namespace sysgym
