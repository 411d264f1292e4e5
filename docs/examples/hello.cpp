#include <iostream>
#include "builtins/builtins.hpp"
#include "env/episode.hpp"
int main() {
  sysgym::Registry envs;
  sysgym::PolicyRegistry policies;
  sysgym::register_builtins(envs, policies, std::make_shared<sysgym::DataStore>());
  auto env = envs.make("memtier", {{"trace", "synth:phased:5000"}, {"hbm_capacity", "10%"}});
  auto lru = policies.make("lru", env->id());
  auto episode = sysgym::run_episode(*env, *lru, "lru", /*seed=*/0, /*record=*/false);
  std::cout << "gap closed: " << episode.summary["gap_closed"] << "\n";
}
