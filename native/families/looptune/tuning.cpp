#include "families/looptune/tuning.hpp"

#include <algorithm>
#include <chrono>

#include "agents/learned_policy.hpp"
#include "catalog.hpp"
#include "looptune/looptune_env.hpp"
#include "looptune/search_policy.hpp"

namespace sysgym::cli {

const looptune::LoopNest& Tuning::tuned() const {
  return dynamic_cast<const looptune::LooptuneEnv&>(*env).best_nest();
}

Tuning run_tuning(const std::string& policy, nlohmann::json policy_config,
                  const nlohmann::json& settings,
                  const std::function<void(const looptune::LooptuneEnv&)>& before,
                  double budget_seconds) {
  using Clock = std::chrono::steady_clock;
  const nlohmann::json config = agents::config_for_policy(
      policy, policy_config, catalog().envs.spec("looptune-v0"), settings);
  Tuning t;
  t.env = catalog().envs.make("looptune-v0", config);
  if (before) before(dynamic_cast<const looptune::LooptuneEnv&>(*t.env));
  const bool planning = looptune::is_planning_search(policy);
  const bool bounds_itself = looptune::takes_time_budget(policy);
  const auto since = [](Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  double reset_seconds = 0;
  if (budget_seconds > 0) {
    // The untuned nest's evaluation (a measurement with reward=measure) comes out of the budget:
    // the env memoises it, so the episode's own reset below costs nothing.
    const auto reset_start = Clock::now();
    t.env->reset(0);
    reset_seconds = since(reset_start);
    if (bounds_itself) policy_config["seconds"] = std::max(budget_seconds - reset_seconds, 1e-6);
    if (planning) policy_config["evaluations"] = 100'000'000;
  }
  // Reading a policy file is not tuning: the clock starts after it.
  auto chosen = catalog().policies.make(policy, "looptune-v0", policy_config);
  const auto start = Clock::now();
  const auto elapsed = [&] { return reset_seconds + since(start); };
  PolicyEpisode episode(*t.env, *chosen, policy, 0, false);
  while (!episode.done()) {
    if (budget_seconds > 0 && !bounds_itself && elapsed() >= budget_seconds) {
      t.budget_exhausted = true;
      break;
    }
    episode.step();
  }
  t.episode = episode.release();
  t.seconds = elapsed();
  if (const auto* planner = dynamic_cast<const looptune::SearchPolicy*>(chosen.get())) {
    t.evaluations = planner->last().evaluations;
    t.budget_exhausted = planner->last().budget_exhausted;
  }
  if (bounds_itself && !planning && budget_seconds > 0)
    t.budget_exhausted = t.seconds >= budget_seconds;
  return t;
}

}  // namespace sysgym::cli
