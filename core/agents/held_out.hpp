// `sysgym eval ENV --split held-out`: one protocol for every family. Each family's policy
// manifest declares its splits (the config key they are values of, and the members of each),
// the settings and the grid every member runs at, and its shipped policies with their training
// seeds; the protocol runs every shipped policy and every baseline, search and oracle on each
// member and grid point over several episode seeds and says, per learned policy, where it stands
// against the best policy that neither learns nor knows the future.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agents/evaluation.hpp"

namespace sysgym::agents {

// A shipped policy: its label and files (relative to the manifest's folder), one per training
// seed, the first seed's first.
struct ShippedPolicy {
  std::string label;
  std::vector<std::string> files;
};

struct SplitProtocol {
  std::string split;                 // "train" or "held-out"
  std::string key;                   // the config key the split's members are values of
  std::vector<std::string> members;  // of the split asked for
  nlohmann::json settings;           // an object: every run's settings
  std::vector<std::string> vary;     // KEY=[JSON array]: the grid every member runs at
  std::vector<ShippedPolicy> policies;
  // The manifest's optional `hindsight` {label, from, grid: {policy: {parameter: [values]}}}:
  // every combination of a policy's values is a candidate. `from` names the row the distance to
  // the hindsight row is measured from.
  HindsightTuning hindsight;
  std::string hindsight_from;
};

// The split `split` ("train" or "held-out") of a family's manifest. Throws ConfigError naming
// `where` (the manifest) and the field that is missing or malformed, or the splits there are.
SplitProtocol split_protocol(const nlohmann::json& manifest, const std::string& split,
                             const std::string& where);

struct SplitRequest {
  SplitProtocol protocol;
  std::vector<TrainedPolicy> trained;  // rows shared by a policy's training seeds
  std::vector<std::string> baselines;  // empty: every policy that runs on its own
  std::uint64_t seed = 0;
  std::uint64_t seeds = 3;
  ParallelFor parallel = {};  // as EvaluationRequest's
};

// {env, split, key, members, metric, seed, seeds, tables, summary}. Each member at each grid
// point is one table pooling its runs (episode seeds, training seeds, the problems of a set);
// policies trained for different tasks (inline's objectives) get tables of their own. Each table
// names its best non-learned, non-oracle row (`best_other`) and its best oracle (`best_oracle`),
// null when it has none. The summary has a line per learned policy: in how many tables its mean
// metric beats the best other row's, is within 0.01 of it or trails, the worst shortfall, and
// its worst run; with a hindsight tuning, also `hindsight_share`: how much of the way from the
// `from` row to the hindsight row it goes, over all tables' means ((mine - from) / (hindsight -
// from)). `progress` counts runs.
nlohmann::json evaluate_split(const Registry& envs, const PolicyRegistry& policies,
                              const SplitRequest& request, const ProgressFn& progress = {});

// The result as text: a table per member and grid point (metric mean, min and max over its runs),
// then the summary.
std::string split_text(const Registry& envs, const nlohmann::json& result);

}  // namespace sysgym::agents
