// What `sysgym inline estimate` and the browser's call-graph view show of a program in model
// mode: its call graph as data to draw, and the model's figures for a decision set named in a
// request. Both shells answer the same request through these functions, so a figure in the
// browser is the native tool's to the bit.
//
// Request (JSON): {"decisions": D, "graph": bool}. D is a decision set's name (never, always,
// O2, Oz), a list of site ids to inline, a list of 0/1 per site in the program's order, or a
// decisions file's object. Answer: InlineEnv::assess's figures plus "program", "sites" and, when
// asked, "graph":
//   {"functions": [{"name", "local", "text_bytes", "calls", "callers"}],
//    "sites": [{"id", "caller", "callee", "calls", "copies", "line", "o2", "oz"}],
//    "order": [site index, ...]}   (the env's steps: order[k] is decided at step k)
// where a function's "calls" are its dynamic calls from every site, "callers" its sites.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "inline/decisions.hpp"
#include "inline/inline_env.hpp"

namespace sysgym::inlining {

// The decisions a request's "decisions" value names (see above). Throws ConfigError naming
// `what` for a list of the wrong length, a value that is no bit, or an unknown site.
Decisions requested_decisions(const Program& program, const nlohmann::json& spec,
                              const std::string& what);

nlohmann::json call_graph_json(const InlineEnv& env);

// `env` has been reset on its one program. Throws ConfigError naming `what` for unknown keys.
nlohmann::json model_view(const InlineEnv& env, const nlohmann::json& request,
                          const std::string& what);

}  // namespace sysgym::inlining
