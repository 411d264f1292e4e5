// Reports of any env as text: what `run`, `compare` and `eval` print without --json.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "env/env.hpp"

namespace sysgym::cli {

// A summary number: *_bytes and bytes_* keys in binary units (12.5 MiB), other reals with 6
// significant digits, integers and strings as JSON.
std::string report_value_text(const std::string& key, const nlohmann::json& value);

// One line per row (policy first, "*" after an oracle), one column per key of `columns` (default:
// every number of the first row), the ranking's key marked in the header (^ higher is better,
// v lower is better).
void print_report_table(const nlohmann::json& rows, std::vector<std::string> columns,
                        const Env::Ranking& ranking);

// A comparison as `compare` and `eval` print it: `heading` and the env's facts on one line, the
// table of `rows` in the env's report columns, best first by its ranking.
void print_comparison(const std::string& heading, const Env& env, const nlohmann::json& rows);

// The line under the tables: what "*" means and how the rows are sorted.
void print_comparison_footer(const Env& env);

}  // namespace sysgym::cli
