#include "report_text.hpp"

#include <algorithm>
#include <cstdio>

#include "base/units.hpp"

namespace sysgym::cli {

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

void print_report_table(const nlohmann::json& rows, std::vector<std::string> columns,
                        const Env::Ranking& ranking) {
  const std::string ranked = ranking.key.empty() ? "return" : ranking.key;
  if (rows.empty()) return;
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
  std::printf("%-*s", static_cast<int>(width), "policy");
  for (std::size_t c = 0; c < columns.size(); ++c)
    std::printf(" %*s", widths[c], titles[c].c_str());
  std::printf("\n");
  for (const nlohmann::json& row : rows) {
    const std::string name =
        row["policy"].get<std::string>() + (row.value("oracle", false) ? " *" : "");
    std::printf("%-*s", static_cast<int>(width), name.c_str());
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const std::string text =
          row.contains(columns[c]) ? report_value_text(columns[c], row[columns[c]]) : "-";
      std::printf(" %*s", widths[c], text.c_str());
    }
    std::printf("\n");
  }
}

void print_comparison(const std::string& heading, const Env& env, const nlohmann::json& rows) {
  std::string line = heading + ":";
  const nlohmann::json facts = env.facts();
  for (const auto& [key, value] : facts.items())
    line += (line.back() == ':' ? " " : ", ") + key + " " + report_value_text(key, value);
  std::printf("%s\n", line.c_str());
  print_report_table(rows, env.report_columns(), env.ranking());
}

void print_comparison_footer(const Env& env) {
  const Env::Ranking ranking = env.ranking();
  std::printf("* oracle (knows the future). Sorted best first by %s (%s).\n",
              ranking.key.empty() ? "return" : ranking.key.c_str(),
              ranking.higher_is_better ? "^ higher is better" : "v lower is better");
}

}  // namespace sysgym::cli
