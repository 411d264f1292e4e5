#pragma once

#include <emscripten/val.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "env/episode.hpp"
#include "env/policy.hpp"
#include "memtier/memtier_env.hpp"

namespace sysgym::wasm {

// A memtier episode stepped from JS a window at a time (the playground draws every window): a
// policy deciding, or a recording replayed. After each step the views show the window just
// played: its raw per-bin sample counts, the bins' resident fractions and [reward, terminated,
// truncated, info...].
class EpisodeHandle {
 public:
  // nullptr on failure. Policy episodes are always recorded, so they can be exported.
  static EpisodeHandle* run(const std::string& config_json, const std::string& policy,
                            const std::string& policy_config_json, const std::string& seed);
  static EpisodeHandle* replay(const std::string& episode_json);

  bool done() const;
  bool step();
  emscripten::val histogram_view() const;
  emscripten::val resident_view() const;
  emscripten::val result_view() const;
  std::string describe_json() const;  // config, facts, info keys, bins, windows, start, policy
  std::string summary_json() const;
  std::string record_json() const;  // the episode JSON `sysgym run --record` writes (a run only)

 private:
  EpisodeHandle() = default;
  std::unique_ptr<memtier::MemtierEnv> env_;
  std::unique_ptr<Policy> policy_;
  std::unique_ptr<PolicyEpisode> run_;
  nlohmann::json recording_;  // a replay's input, which the replay reads step by step
  std::unique_ptr<EpisodeReplay> replay_;
  std::string policy_name_;
  std::vector<double> result_;
};

}  // namespace sysgym::wasm
