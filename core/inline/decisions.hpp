// A set of inlining decisions for a program: one bit per call site, read from a decisions file or
// named after a baseline.
//
// File format (JSON): {"kind": "sysgym-inline-decisions", "schema_version": 1, "program": NAME,
// "inline": [site id, ...]}; every site not listed is not inlined.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "inline/program.hpp"

namespace sysgym::inlining {

// Per Program::sites, true = inline. A site clang never inlines (CallSite::never) stays a call
// whatever its bit says, in model and in real mode.
using Decisions = std::vector<bool>;

// The names decision_set() takes: "never", "always" (every site clang may inline), "O2" and "Oz"
// (the sites clang inlined at that level, as the program file records them).
const std::vector<std::string>& decision_set_names();
// Throws UnknownNameError listing the names.
Decisions decision_set(const Program& program, const std::string& name);

nlohmann::json decisions_to_json(const Program& program, const Decisions& decisions);
// Throws ConfigError naming `what` for another program's file, an unknown site id (with the
// closest one) or an id listed twice.
Decisions decisions_from_json(const Program& program, const nlohmann::json& j,
                              const std::string& what);

}  // namespace sysgym::inlining
