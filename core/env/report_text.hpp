// Reports of any env as text: what `run`, `compare` and `eval` print without --json. Built in
// core, as the JSON reports are, so the native tool and the npm package's bin print the same
// tables.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "env/env.hpp"

namespace sysgym {

// A summary number: *_bytes and bytes_* keys in binary units (12.5 MiB), other reals with 6
// significant digits, integers and strings as JSON.
std::string report_value_text(const std::string& key, const nlohmann::json& value);
// A setting's value as a person reads it (a policy's training settings): strings as they are, with
// unprintable bytes escaped, other values as JSON.
std::string setting_value_text(const nlohmann::json& value);

// One line per row (policy first, "*" after an oracle), one column per key of `columns` (default:
// every number of the first row), the ranking's key marked in the header (^ higher is better,
// v lower is better).
std::string report_table_text(const nlohmann::json& rows, std::vector<std::string> columns,
                              const Env::Ranking& ranking);

// A comparison as `compare` and `eval` print it: `heading` and the env's facts on one line, the
// table of `rows` in the env's report columns, best first by its ranking.
std::string comparison_text(const std::string& heading, const Env& env, const nlohmann::json& rows);

// The line under the tables: how the rows are sorted, and what "*" means when `rows` (a list of
// rows, or of tables' rows) has an oracle.
std::string comparison_footer_text(const Env& env, const nlohmann::json& rows);

// `sysgym run` without --json: the policy, env, seed and return, the facts and the summary of
// run_report() (`metric`, the env's primary metric, marked).
std::string run_report_text(const nlohmann::json& report, const std::string& id,
                            const std::string& metric);

}  // namespace sysgym
