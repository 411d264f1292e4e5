// Running a policy for an episode, and recording it so that another build (the browser) can
// replay it exactly.
//
// Recorded episode JSON (schema_version 1):
//   {"schema_version": 1, "kind": "sysgym-episode", "env": "memtier-v0",
//    "config": {...as given...}, "resolved_config": {...}, "facts": {...},
//    "policy": "lru", "policy_parameters": {...}, "seed": 0, "start": 0,
//    "info_keys": [...],
//    "steps": [{"action": [0, 1, ...]} | {"ranges": ["0x7f..:0x7f..", ...]},
//              with "reward": r, "info": [...] ...],
//    "summary": {...EpisodeSummary...}}
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memtier/memtier_env.hpp"
#include "memtier/policy.hpp"

namespace sysgym::memtier {

inline constexpr int kEpisodeSchemaVersion = 1;

struct StepRecord {
  Decision decision;
  double reward = 0.0;
  std::vector<double> info;
};

struct EpisodeRecord {
  std::string policy;
  nlohmann::json policy_parameters;
  std::uint64_t seed = 0;
  std::size_t start = 0;
  std::vector<StepRecord> steps;  // empty unless recorded
  EpisodeSummary summary;
  // XXH3-64 chained over the bytes of every observation (reset and steps): equal hashes mean
  // bit-identical observations, which is how native and wasm episodes are compared.
  std::uint64_t observation_hash = 0;
};

// A policy's episode one window at a time: run_episode loops over it; the browser steps it
// between frames so that a page can draw every window. The constructor resets `env` with `seed`;
// the policy's own randomness (random agent) comes from an Rng seeded from `seed`.
class PolicyEpisode {
 public:
  PolicyEpisode(MemtierEnv& env, Policy& policy, const std::string& policy_name, std::uint64_t seed,
                bool record);
  bool done() const { return done_; }
  // Plays the next window; ApiMisuseError once the episode is done.
  StepResult step();
  // The record so far (its summary is the env's at the time of the call).
  const EpisodeRecord& record();

 private:
  MemtierEnv& env_;
  Policy& policy_;
  bool recording_;
  bool done_ = false;
  Rng rng_;
  Decision decision_;
  EpisodeRecord record_;
};

// A recorded episode replayed one window at a time. The constructor checks the header and
// resets `env` (made from the recording's "config"); step() throws TraceFormatError for a
// malformed step and ApiMisuseError naming a step whose reward differs. `episode` must outlive
// the replay.
class EpisodeReplay {
 public:
  EpisodeReplay(MemtierEnv& env, const nlohmann::json& episode);
  bool done() const { return next_ == steps_->size(); }
  std::size_t size() const { return steps_->size(); }
  StepResult step();

 private:
  MemtierEnv& env_;
  const nlohmann::json* steps_;
  std::size_t next_ = 0;
  Decision decision_;
};

// Resets `env` with `seed`, then lets `policy` decide every window until the episode ends.
EpisodeRecord run_episode(MemtierEnv& env, Policy& policy, const std::string& policy_name,
                          std::uint64_t seed, bool record);

nlohmann::json episode_to_json(const EpisodeRecord& episode, const MemtierEnv& env);

// Replays a recorded episode on an env made from its "config"; throws TraceFormatError for a
// malformed recording and ApiMisuseError naming the first step whose reward differs.
EpisodeSummary replay_episode(MemtierEnv& env, const nlohmann::json& episode);

}  // namespace sysgym::memtier
