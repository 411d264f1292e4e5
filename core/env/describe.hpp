// `sysgym describe`: what an env is, built in core so the native tool and the npm package's bin
// print the same: its resolved config (with each key's schema), facts, spaces, observation layout,
// entity layout, info keys, primary metric and the policies that run on it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "env/env.hpp"
#include "env/policy.hpp"
#include "env/registry.hpp"

namespace sysgym {

// `sysgym describe --json`: `env`, made from `spec` on some config; `agents`: those that train on
// it (agents/trainer.hpp's fitting_agents, which the shells call: env/ knows no agents).
nlohmann::json describe_report(const EnvSpec& spec, const Env& env, const PolicyRegistry& policies,
                               const std::vector<std::string>& agents);

// `sysgym describe` without --json: the report as text (config keys explained by the schema, the
// observation layout compacted: hist[0]..hist[63] as hist[0..63]).
std::string describe_text(const EnvSpec& spec, const Env& env, const nlohmann::json& report);

}  // namespace sysgym
