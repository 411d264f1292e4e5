// Labels for a policy that imitates the searches (DAgger: Ross, Gordon and Bagnell, "A Reduction
// of Imitation Learning and Structured Prediction to No-Regret Online Learning", 2011). Each state
// an episode visits is labelled with the first action of the best plan a teacher search finds
// from it over the episode's remaining steps; the episode goes on with the label (the teacher
// drives) or with a student policy's own action (so that the student also learns to recover from
// the states its own mistakes lead to). The searches are deterministic at a budget of
// evaluations, so the labels, and a network trained on them with one thread, reproduce.
#pragma once

#include <cstdint>
#include <vector>

#include "env/policy.hpp"
#include "looptune/looptune_env.hpp"
#include "looptune/search.hpp"

namespace sysgym::looptune {

struct TeacherSearch {
  SearchKind kind = SearchKind::kBeamDfs;
  int width = 2;
  SearchBudget budget;  // evaluations only (seconds 0), else the labels would not reproduce
};

struct LabelledStates {
  std::vector<std::vector<float>> observations;
  std::vector<int> actions;
};

struct LabelledEpisode {
  double best_speedup = 0;  // of the episode as played (by the teacher or the student)
  std::int64_t states = 0;  // labelled
};

// Plays one episode of `env` reset with `seed` and appends each state's observation and label to
// `out`. Among the teachers the plan reaching the most GFLOPS labels the state (the first teacher
// on a tie); a state no plan improves on is labelled with the idle cursor move. `student` null:
// the labels are played; else the student's actions. Throws ConfigError for no teachers or a
// teacher with a time budget.
LabelledEpisode label_episode(LooptuneEnv& env, std::uint64_t seed,
                              const std::vector<TeacherSearch>& teachers, Policy* student,
                              LabelledStates& out);

}  // namespace sysgym::looptune
