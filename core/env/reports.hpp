// The JSON reports of running policies on any env, printed by the command-line tools with
// --json and returned to JavaScript. Built here, in core, so the native `sysgym`, the npm
// package's bin and the browser show identical figures.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "env/env.hpp"
#include "env/episode.hpp"
#include "env/policy.hpp"

namespace sysgym {

// `sysgym run --json`: the episode summary, return, policy, seed, observation hash, config and
// facts.
nlohmann::json run_report(const EpisodeRecord& episode, const Env& env);

// Sorts report rows best first by `ranking` (its key, or "return" when it names none); rows
// that tie keep their order.
void sort_rows(std::vector<nlohmann::json>& rows, const Env::Ranking& ranking);

using EnvMaker = std::function<std::unique_ptr<Env>()>;

// One row of a comparison: `policy` (a registered name) with `parameters`, on a fresh env from
// `make_env`, listed as `label` (the policy's name when empty).
struct ComparedPolicy {
  std::string policy;
  EnvMaker make_env;
  nlohmann::json parameters = nlohmann::json::object();
  std::string label = {};
};

// `sysgym compare --json` and `sysgym eval --json`: every entry run once, one row each (the run
// report's summary and return, "policy", "oracle"), best first by the env's ranking().
// `progress(done, total)` is called after each policy.
nlohmann::json compare_report(const std::vector<ComparedPolicy>& entries,
                              const PolicyRegistry& policies, std::uint64_t seed,
                              const std::function<void(std::size_t, std::size_t)>& progress = {});

// Every policy in `names` on envs from `make_env`; `parameters` maps a name to its parameters
// (a learned policy's file).
nlohmann::json compare_report(const EnvMaker& make_env, const PolicyRegistry& policies,
                              const std::vector<std::string>& names, std::uint64_t seed,
                              const std::function<void(std::size_t, std::size_t)>& progress = {},
                              const nlohmann::json& parameters = nlohmann::json::object());

}  // namespace sysgym
