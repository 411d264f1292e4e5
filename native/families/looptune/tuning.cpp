#include "families/looptune/tuning.hpp"

#include <chrono>

#include "agents/learned_policy.hpp"
#include "base/units.hpp"
#include "catalog.hpp"
#include "looptune/looptune_env.hpp"
#include "looptune/search_policy.hpp"

namespace sysgym::cli {

const looptune::LoopNest& Tuning::tuned() const {
  return dynamic_cast<const looptune::LooptuneEnv&>(*env).best_nest();
}

nlohmann::json with_time_budget(nlohmann::json policy_config, const std::string& budget) {
  policy_config["seconds"] = parse_duration(budget);
  policy_config["evaluations"] = 100'000'000;
  return policy_config;
}

Tuning run_tuning(const std::string& policy, const nlohmann::json& policy_config,
                  const nlohmann::json& settings,
                  const std::function<void(const looptune::LooptuneEnv&)>& before) {
  const nlohmann::json config = agents::config_for_policy(
      policy, policy_config, catalog().envs.spec("looptune-v0"), settings);
  auto chosen = catalog().policies.make(policy, "looptune-v0", policy_config);
  Tuning t;
  t.env = catalog().envs.make("looptune-v0", config);
  if (before) before(dynamic_cast<const looptune::LooptuneEnv&>(*t.env));
  const auto start = std::chrono::steady_clock::now();
  t.episode = run_episode(*t.env, *chosen, policy, 0, false);
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (const auto* planner = dynamic_cast<const looptune::SearchPolicy*>(chosen.get())) {
    t.evaluations = planner->last().evaluations;
    t.budget_exhausted = planner->last().budget_exhausted;
  }
  return t;
}

}  // namespace sysgym::cli
