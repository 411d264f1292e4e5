// The JSON reports the command-line tools print with --json. They are built here, in core, so
// the native `sysgym` and the npm package's `sysgym` bin print identical output.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "memtier/episode.hpp"
#include "memtier/hbm_ranges.hpp"
#include "memtier/pair_source.hpp"
#include "memtier/policy.hpp"
#include "memtier/prepared_pair.hpp"

namespace sysgym::memtier {

// `sysgym estimate --json`: the estimate and, with a measured run, its time and relative error.
nlohmann::json estimate_report(const PreparedPair& pair, const HbmRanges& hbm, double hbm_factor,
                               const Trace* measured);

// `sysgym run --json`: the episode summary, policy, seed, observation hash, config and facts.
nlohmann::json run_report(const EpisodeRecord& episode, const MemtierEnv& env);

// `sysgym compare --json`: every policy in `names` run once on `config`, sorted by estimated
// time (migration excluded). `progress(done, total)` is called after each policy;
// `parameters` maps a policy name to its parameters (a learned policy's file).
nlohmann::json compare_report(const nlohmann::json& config, PairSource& traces,
                              const PolicyRegistry& policies, const std::vector<std::string>& names,
                              std::uint64_t seed,
                              const std::function<void(std::size_t, std::size_t)>& progress = {},
                              const nlohmann::json& parameters = nlohmann::json::object());

}  // namespace sysgym::memtier
