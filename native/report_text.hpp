// Reports of any env as text: what `run`, `compare` and `eval` print without --json.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sysgym::cli {

// A summary number: *_bytes and bytes_* keys in binary units (12.5 MiB), other reals with 6 significant
// digits, integers and strings as JSON.
std::string report_value_text(const std::string& key, const nlohmann::json& value);

// One line per row (policy first, "*" after an oracle), one column per key of `columns` (default:
// every number of the first row), `metric` marked in the header.
void print_report_table(const nlohmann::json& rows, std::vector<std::string> columns,
                        const std::string& metric);

}  // namespace sysgym::cli
