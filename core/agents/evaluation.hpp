// `sysgym eval`: trained policies next to every baseline and oracle, on whole episodes of the
// configs a user names (held-out traces, other capacities ...), one comparison table each. In
// core so the native tool and the npm package's bin evaluate, and print, alike.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agents/policy_file.hpp"
#include "base/numbers.hpp"
#include "base/progress.hpp"
#include "env/policy.hpp"
#include "env/registry.hpp"
#include "env/vector_env.hpp"

namespace sysgym::agents {

struct TrainedPolicy {
  std::string path;     // as the user named it
  nlohmann::json text;  // the file, as the learned policy's parameters
  PolicyFile file;
  std::string row;  // its row's label, "learned:PATH"; one policy's training seeds share a row
};
// Throws ConfigError naming `path` when `text` is not a policy file.
TrainedPolicy trained_policy(nlohmann::json text, const std::string& path);

// How many episode seeds an evaluation may pool per row (--seeds).
inline constexpr IntegerRange kEvalSeedsRange{1, 1000};

// A reference tuned with each run's result known: every candidate (a policy and its parameters)
// runs, and per run only the best by the metric is kept, as one oracle row `label` that names
// the candidate it kept (`tuned`). What tuning those parameters alone could reach.
struct HindsightTuning {
  std::string label;  // empty: none
  std::vector<std::pair<std::string, nlohmann::json>> candidates;
};

struct EvaluationRequest {
  std::vector<TrainedPolicy> trained;  // at least one, all of one env
  std::string env;                     // the env the user named ("" when none)
  nlohmann::json config;               // --config's object (null when none)
  std::vector<std::string> settings;   // KEY=VALUE over it
  std::vector<std::string> vary;       // --vary texts
  std::vector<std::string> baselines;  // empty: every policy that runs on its own
  std::uint64_t seed = 0;
  std::uint64_t seeds = 1;  // episodes per row: seed, seed + 1, ...
  // One table per grid point, pooling the configs the env expands it to (a problem set's
  // problems), rather than one per config.
  bool pool_expansions = false;
  // Runs the runs (a config at a seed, every row) on a shell's threads; empty: one after the
  // other. The result is the same either way: each run has its own envs and policies, and the
  // runs are pooled in order.
  ParallelFor parallel = {};
  HindsightTuning hindsight = {};
};

struct Evaluation {
  std::string env_id;
  nlohmann::json tables;  // [{config, rows}], as `sysgym eval --json` prints it
  std::string metric;     // the env's primary metric
  Env::Ranking ranking;   // how its rows are ordered
};

// Baselines run on the first policy's env settings without the keys a policy fixes (as `sysgym
// compare` runs them), with the user's config over them; each learned policy adds its own.
// Every config of the --vary grid runs whole (the env's evaluation configs). A table that pools
// several runs (seeds, expanded configs, rows shared by training seeds) has per row the mean of
// each number, `runs`, and the primary metric's `METRIC_min` and `METRIC_max`. `progress` counts
// runs; with `request.parallel` it is called from the threads that run them, one call at a time.
// Throws ConfigError for policies of different envs or tasks, or an env other than theirs.
Evaluation evaluate_policies(const Registry& envs, const PolicyRegistry& policies,
                             const EvaluationRequest& request, const ProgressFn& progress = {});

// The config keys whose values differ between `tables` ([{config, rows}]), in config order.
std::vector<std::string> distinguishing_keys(const nlohmann::json& tables);

// The tables as text, headed by the keys that tell them apart, and the footer.
std::string evaluation_text(const Registry& envs, const Evaluation& evaluation);

}  // namespace sysgym::agents
