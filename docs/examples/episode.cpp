// Policies, episodes, recordings and the env checker are generic: this runs on any env id.
#include <iostream>

#include "builtins/builtins.hpp"
#include "env/check_env.hpp"
#include "env/episode.hpp"

int main() {
  using namespace sysgym;
  Registry envs;
  PolicyRegistry policies;
  register_builtins(envs, policies, std::make_shared<DataStore>());  // data by name
  auto env = envs.make("memtier", {{"trace", "synth:phased:5000"}});
  auto lru = policies.make("lru", env->id());  // UnknownNameError off its family
  EpisodeRecord record = run_episode(*env, *lru, "lru", /*seed=*/0, /*record=*/true);
  nlohmann::json file = episode_to_json(record, *env);  // what `sysgym run --record` writes
  replay_episode(*env, file);                           // ApiMisuseError at a differing reward
  for (const std::string& passed : check_env(envs, policies, "memtier-v0"))
    std::cout << "ok: " << passed << "\n";  // EnvCheckError names a broken promise
}
