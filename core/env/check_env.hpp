// check_env: does a registered env keep the env contract? In the spirit of Gymnasium's env
// checker, run over every registered id by the test suites (natively and under Node) and by
// `sysgym check`, so a new family learns of a broken promise before its users do.
//
// Checked, on the env made from the spec's example config (plus `config`):
//   spaces and buffers: the observation has the observation space's size and lies in it (at
//     reset and after every step); there is one info value per info key; rewards and infos are
//     finite; observation_layout() names every element once;
//   order: step() before reset() and after the episode's end is an ApiMisuseError;
//   actions: sampled actions are accepted; an action of the wrong size or with a NaN is an
//     InvalidActionError that leaves the episode as it was;
//   determinism: two envs reset with the same seed and given the same actions return
//     bit-identical observations, rewards and infos; reset(seed) twice on one env starts alike;
//   config: the resolved config() makes an env with the same resolved config;
//   describe: episode_summary() is an object of numbers holding primary_metric() when declared;
//   policies: every policy of the env's family that runs without parameters plays an episode
//     whose recording replays to the same summary.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "env/policy.hpp"
#include "env/registry.hpp"

namespace sysgym {

struct EnvCheckOptions {
  nlohmann::json config = nlohmann::json::object();  // over the example config
  std::uint64_t seed = 0;
  std::size_t max_steps = 500;  // per episode played by the checks
};

// The checks that passed, one line each. Throws EnvCheckError naming the first broken promise,
// or the env's own error when it cannot be made.
std::vector<std::string> check_env(const Registry& envs, const PolicyRegistry& policies,
                                   std::string_view id, const EnvCheckOptions& options = {});

}  // namespace sysgym
