// Running a policy for an episode of any env, and recording it so that another build (the
// browser) can replay it exactly.
//
// Recorded episode JSON (schema_version 2):
//   {"schema_version": 2, "kind": "sysgym-episode", "env": "memtier-v0",
//    "config": {...as given...}, "resolved_config": {...}, "facts": {...},
//    "policy": "lru", "policy_parameters": {...}, "seed": 0, "reset_options": {...},
//    "info_keys": [...],
//    "steps": [{"action": [0, 1, ...]} | {...the family's directive keys...},
//              with "reward": r, "info": [...] ...],
//    "observation_hash": "0x...", "summary": {...Env::episode_summary()...}}
// Version 1 (memtier only) had "start": N where version 2 has "reset_options": {"start": N};
// both replay.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "env/env.hpp"
#include "env/policy.hpp"
#include "env/registry.hpp"

namespace sysgym {

inline constexpr int kEpisodeSchemaVersion = 2;

// EpisodeRecord::observation_hash's step: `hash` chained with one observation's bytes (start
// from 0). Exposed so that other shells (Python) compare their own episodes with recordings.
std::uint64_t chain_hash(std::uint64_t hash, std::span<const float> observation);

struct StepRecord {
  std::vector<double> action;            // when the step took an action
  std::unique_ptr<Directive> directive;  // otherwise
  double reward = 0.0;
  std::vector<double> info;
};

struct EpisodeRecord {
  std::string policy;
  nlohmann::json policy_parameters;
  std::uint64_t seed = 0;
  nlohmann::json reset_options;   // Env::episode_options() after the reset
  std::vector<StepRecord> steps;  // empty unless recorded
  nlohmann::json summary;         // Env::episode_summary()
  double episode_return = 0.0;    // the sum of the rewards
  std::vector<double> returns;    // the return after each step (kept unrecorded too: a comparison
                                  // draws every policy's curve)
  // XXH3-64 chained over the bytes of every observation (reset and steps): equal hashes mean
  // bit-identical observations, which is how native and wasm episodes are compared.
  std::uint64_t observation_hash = 0;
};

// A policy's episode one step at a time: run_episode loops over it; the browser steps it between
// frames so that a page can draw every step. The constructor resets `env` with `seed`; the
// policy's own randomness (random agent) comes from an Rng seeded from `seed`.
class PolicyEpisode {
 public:
  PolicyEpisode(Env& env, Policy& policy, const std::string& policy_name, std::uint64_t seed,
                bool record);
  bool done() const { return done_; }
  // Plays the next step; ApiMisuseError once the episode is done.
  StepResult step();
  // The record so far (its summary is the env's at the time of the call).
  const EpisodeRecord& record();
  // The record, moved out (the episode keeps none).
  EpisodeRecord release();

 private:
  Env& env_;
  Policy& policy_;
  bool recording_;
  bool done_ = false;
  Rng rng_;
  Decision decision_;
  EpisodeRecord record_;
};

// A recorded episode replayed one step at a time. The constructor checks the header and resets
// `env` (made from the recording's "config"); step() throws TraceFormatError for a malformed step
// and ApiMisuseError naming a step whose reward differs. `episode` must outlive the replay.
class EpisodeReplay {
 public:
  EpisodeReplay(Env& env, const nlohmann::json& episode);
  bool done() const { return next_ == steps_->size(); }
  std::size_t size() const { return steps_->size(); }
  StepResult step();

 private:
  // Env::read_directive, its TraceFormatError named with the step.
  bool read_directive(const nlohmann::json& step, std::size_t index);

  Env& env_;
  const nlohmann::json* steps_ = nullptr;
  std::size_t next_ = 0;
  std::vector<double> action_;
  std::unique_ptr<Directive> directive_;
};

// Resets `env` with `seed`, then lets `policy` decide every step until the episode ends.
EpisodeRecord run_episode(Env& env, Policy& policy, const std::string& policy_name,
                          std::uint64_t seed, bool record);

nlohmann::json episode_to_json(const EpisodeRecord& episode, const Env& env);

// The env a recording was made on, made from its "env" id and "config" (TraceFormatError when
// `episode` is not a recording this build reads; the registry's errors pass through).
std::unique_ptr<Env> make_recorded_env(const Registry& envs, const nlohmann::json& episode);

// Replays a recorded episode on an env made from its "config" and returns the env's summary;
// throws as EpisodeReplay does.
nlohmann::json replay_episode(Env& env, const nlohmann::json& episode);

}  // namespace sysgym
