#pragma once

#include <emscripten/val.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "env/episode.hpp"
#include "env/policy.hpp"

namespace sysgym::wasm {

// An episode of any env stepped from JS one step at a time (the playground draws every step): a
// policy deciding, or a recording replayed. After each step the views show the step just played:
// the env's frame arrays (Env::frame) and [reward, terminated, truncated, info...].
class EpisodeHandle {
 public:
  // nullptr on failure. Policy episodes are always recorded, so they can be exported.
  static EpisodeHandle* run(const std::string& env, const std::string& config_json,
                            const std::string& policy, const std::string& policy_config_json,
                            const std::string& seed);
  static EpisodeHandle* replay(const std::string& episode_json);

  bool done() const;
  bool step();
  // The frame's array `index` (in the order describe_json's "frame" lists them), as a typed array
  // over core memory: valid until the next step.
  emscripten::val frame_view(int index) const;
  emscripten::val result_view() const;
  // describe() of the env, plus "frame" ([{name, dtype, size}]), "frame_context", "policy",
  // "replay" and a run's "policy_parameters".
  std::string describe_json() const;
  std::string summary_json() const;
  std::string record_json() const;  // the episode JSON `sysgym run --record` writes (a run only)

 private:
  EpisodeHandle() = default;
  std::unique_ptr<Env> env_;
  std::unique_ptr<Policy> policy_;
  std::unique_ptr<PolicyEpisode> run_;
  nlohmann::json recording_;  // a replay's input, which the replay reads step by step
  std::unique_ptr<EpisodeReplay> replay_;
  std::string policy_name_;
  std::vector<double> result_;
};

}  // namespace sysgym::wasm
