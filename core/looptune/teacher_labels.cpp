#include "looptune/teacher_labels.hpp"

#include "base/error.hpp"
#include "base/rng.hpp"

namespace sysgym::looptune {

LabelledEpisode label_episode(LooptuneEnv& env, std::uint64_t seed,
                              const std::vector<TeacherSearch>& teachers, Policy* student,
                              LabelledStates& out) {
  if (teachers.empty()) throw ConfigError("looptune labels: no teacher search given");
  for (const TeacherSearch& t : teachers) {
    if (t.budget.seconds > 0)
      throw ConfigError(
          "looptune labels: a teacher's budget is in evaluations, not seconds "
          "(a time budget would label differently on every run)");
  }
  env.reset(seed);
  Rng search_rng(derive_seed(seed, 0x7eac4e7));
  Rng student_rng(derive_seed(seed, 0x57d));
  Decision decision;
  if (student != nullptr) student->reset(env, student_rng);
  LabelledEpisode episode;
  const auto successor = [&env](const Schedule& s, Action a) { return env.after(s, a); };
  const auto evaluate = [&env](const LoopNest& nest) { return env.gflops(nest); };
  while (env.episode_active()) {
    const double now = env.gflops(env.schedule().nest);
    Action label = env.idle_action();
    double best = now;
    for (const TeacherSearch& t : teachers) {
      const SearchResult plan =
          run_search(t.kind, t.width, env.schedule(), static_cast<int>(env.steps_left()), successor,
                     evaluate, t.budget, search_rng);
      if (!plan.actions.empty() && plan.gflops > best) {
        best = plan.gflops;
        label = plan.actions.front();
      }
    }
    out.observations.emplace_back(env.observation().begin(), env.observation().end());
    out.actions.push_back(static_cast<int>(label));
    ++episode.states;
    double action = static_cast<double>(label);
    if (student != nullptr) {
      student->decide(env, decision);
      action = decision.action.at(0);
    }
    env.step(std::span<const double>(&action, 1));
    if (student != nullptr && env.episode_active()) student->observe(env);
  }
  episode.best_speedup = env.episode_summary()["best_speedup"].get<double>();
  return episode;
}

}  // namespace sysgym::looptune
