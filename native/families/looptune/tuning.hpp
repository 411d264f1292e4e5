// One tuning episode as `sysgym looptune tune` and `bench` run it: a policy (a search, greedy,
// random or learned) on looptune-v0 from the untuned nest, timed, with the schedules a planning
// search evaluated.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "env/episode.hpp"
#include "looptune/loop_nest.hpp"
#include "looptune/looptune_env.hpp"

namespace sysgym::cli {

struct Tuning {
  std::unique_ptr<Env> env;
  EpisodeRecord episode;
  double seconds = 0;  // the whole tuning: the untuned nest's evaluation, planning and stepping
  std::int64_t evaluations = 0;   // a planning search's; 0 for the others
  bool budget_exhausted = false;  // the budget ended the tuning (a search's, or the steps')
  // The best nest the episode reached by its reward (the untuned one when no step beat it).
  const looptune::LoopNest& tuned() const;
};

// Runs `policy` (seed 0) on looptune-v0 with `settings` (kernel, episode_length, ...) over the
// config the policy's file brings, if any; `before` sees the env before the episode starts (a
// caller's checks of what it will do with the result).
//
// `budget_seconds` (0: none) bounds the whole tuning, the untuned nest's measurement included
// (reward=measure): a planning search or greedy gets what is left of it after that measurement
// (a planning search then counts time, not evaluations); any other policy stops stepping once it
// is spent. Either way the episode ends at most one evaluation (one measurement) past it, and
// keeps the best nest it reached.
Tuning run_tuning(const std::string& policy, nlohmann::json policy_config,
                  const nlohmann::json& settings,
                  const std::function<void(const looptune::LooptuneEnv&)>& before = {},
                  double budget_seconds = 0);

}  // namespace sysgym::cli
