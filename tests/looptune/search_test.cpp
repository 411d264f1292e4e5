// looptune's searches: exhaustive when the budget and width allow (equal to brute force over
// every action sequence), their plans replay to the GFLOPS they report, budgets hold, seeded
// searches repeat, and as policies they reach their plan's schedule within the episode.
#include "looptune/search.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "base/error.hpp"
#include "env/episode.hpp"
#include "looptune/cost_model.hpp"
#include "looptune/looptune_env.hpp"
#include "looptune/problems.hpp"
#include "looptune/teacher_labels.hpp"

namespace sysgym::looptune {
namespace {

const Successor kNext = [](const Schedule& s, Action a) { return apply(s, a, 10); };

Evaluate model_of(const CostModel& model) {
  return [model](const LoopNest& nest) { return model.gflops(nest, false); };
}

// The best GFLOPS of any sequence of up to `depth` actions, by enumerating them all.
double brute_force(const Schedule& s, int depth, const Evaluate& evaluate) {
  double best = evaluate(s.nest);
  if (depth == 0) return best;
  for (int a = 0; a < kActionCount; ++a) {
    if (const auto next = kNext(s, static_cast<Action>(a)))
      best = std::max(best, brute_force(*next, depth - 1, evaluate));
  }
  return best;
}

double replayed(const Schedule& start, const std::vector<Action>& actions,
                const Evaluate& evaluate) {
  Schedule s = start;
  for (Action a : actions) {
    const auto next = kNext(s, a);
    EXPECT_TRUE(next.has_value()) << "a plan's action cannot apply: " << action_name(a);
    if (next) s = *next;
  }
  return evaluate(s.nest);
}

TEST(LooptuneSearch, WideBeamsAreExhaustiveAndPlansReplay) {
  const Evaluate evaluate = model_of(CostModel{});
  for (const char* spec : {"matmul:64x48x32", "conv3x3:1x4x8x4x4"}) {
    const Schedule start{LoopNest::initial(problem_from_spec(spec)), 0};
    const double best = brute_force(start, 3, evaluate);
    Rng rng(1);
    const SearchBudget unlimited{100'000'000, 0};
    const SearchResult bfs =
        run_search(SearchKind::kBeamBfs, 100000, start, 3, kNext, evaluate, unlimited, rng);
    const SearchResult dfs =
        run_search(SearchKind::kBeamDfs, kActionCount, start, 3, kNext, evaluate, unlimited, rng);
    EXPECT_EQ(bfs.gflops, best) << spec;
    EXPECT_EQ(dfs.gflops, best) << spec;
    EXPECT_FALSE(bfs.budget_exhausted);
    for (SearchKind kind :
         {SearchKind::kBeamBfs, SearchKind::kBeamDfs, SearchKind::kRollouts, SearchKind::kAnneal}) {
      Rng seeded(7);
      const SearchResult r =
          run_search(kind, 2, start, 6, kNext, evaluate, SearchBudget{300, 0}, seeded);
      EXPECT_LE(r.actions.size(), 6u);
      EXPECT_LE(r.evaluations, 300);
      EXPECT_GE(r.gflops, evaluate(start.nest));
      EXPECT_EQ(replayed(start, r.actions, evaluate), r.gflops) << spec;
      Rng again(7);
      const SearchResult repeat =
          run_search(kind, 2, start, 6, kNext, evaluate, SearchBudget{300, 0}, again);
      EXPECT_EQ(repeat.actions, r.actions) << "seeded searches repeat";
    }
  }
}

TEST(LooptuneSearch, MoreBudgetNeverFindsLessAndAnnealingEscapesTheConvolutionsPlateau) {
  const Evaluate evaluate = model_of(CostModel{});
  const Schedule start{LoopNest::initial(problem_from_spec("conv3x3:1x16x32x16x16")), 0};
  Rng rng(3);
  const SearchResult small =
      run_search(SearchKind::kBeamBfs, 4, start, 10, kNext, evaluate, SearchBudget{10, 0}, rng);
  const SearchResult large =
      run_search(SearchKind::kBeamBfs, 4, start, 10, kNext, evaluate, SearchBudget{5000, 0}, rng);
  EXPECT_TRUE(small.budget_exhausted);
  EXPECT_GE(large.gflops, small.gflops);
  // Greedy stays put on a convolution (no one or two actions help); annealing over whole
  // sequences finds the wide loops three swaps away.
  const SearchResult annealed =
      run_search(SearchKind::kAnneal, 0, start, 10, kNext, evaluate, SearchBudget{5000, 0}, rng);
  EXPECT_GT(annealed.gflops, 2 * evaluate(start.nest));
}

TEST(LooptuneSearch, SearchPoliciesPlayTheirPlanWithinTheEpisode) {
  auto data = std::make_shared<DataStore>();
  Registry envs;
  PolicyRegistry policies;
  register_looptune(envs, data);
  register_looptune_policies(policies);
  for (const char* name : {"beam2bfs", "beam4bfs", "beam2dfs", "beam4dfs", "rollouts", "anneal"}) {
    auto env = envs.make("looptune-v0", {{"kernel", "matmul:96x128x64"}});
    auto policy = policies.make(name, "looptune-v0", {{"evaluations", 500}});
    const EpisodeRecord e = run_episode(*env, *policy, name, 2, true);
    EXPECT_EQ(e.summary["illegal_actions"], 0) << name;
    EXPECT_EQ(e.summary["final_gflops"], e.summary["best_gflops"]) << name;
    EXPECT_GT(e.summary["speedup"].get<double>(), 2.0) << name;
    // A recorded search replays to the same summary, and runs again to the same episode.
    auto replay_env = envs.make("looptune-v0", {{"kernel", "matmul:96x128x64"}});
    EXPECT_EQ(replay_episode(*replay_env, episode_to_json(e, *env)), e.summary) << name;
    auto again = envs.make("looptune-v0", {{"kernel", "matmul:96x128x64"}});
    auto fresh = policies.make(name, "looptune-v0", {{"evaluations", 500}});
    EXPECT_EQ(run_episode(*again, *fresh, name, 2, false).summary, e.summary) << name;
  }
  EXPECT_THROW(policies.make("anneal", "looptune-v0", {{"evaluation", 5}}), ConfigError);
}

TEST(LooptuneSearch, TheSequencePolicyReplaysAPersonsActionsThenIdles) {
  auto data = std::make_shared<DataStore>();
  Registry envs;
  PolicyRegistry policies;
  register_looptune(envs, data);
  register_looptune_policies(policies);
  const std::vector<Action> actions = {Action::kDown, Action::kSwapDown, Action::kSplit8};
  auto env = envs.make("looptune-v0", {{"kernel", "matmul:64x96x128"}, {"episode_length", 6}});
  auto policy =
      policies.make("sequence", "looptune-v0",
                    {{"actions", {"down", "swap_down", static_cast<int>(Action::kSplit8)}}});
  const EpisodeRecord e = run_episode(*env, *policy, "sequence", 0, true);
  Schedule expected{LoopNest::initial(problem_from_spec("matmul:64x96x128")), 0};
  for (Action a : actions)
    expected = *apply(expected, a, 10);
  const auto& tuned = dynamic_cast<const LooptuneEnv&>(*env);
  EXPECT_EQ(tuned.schedule().nest, expected.nest)
      << "the cursor moves after the actions change nothing";
  EXPECT_EQ(e.summary["illegal_actions"], 0);
  EXPECT_THROW(policies.make("sequence", "looptune-v0", {{"actions", {"dwon"}}}), UnknownNameError);
  EXPECT_THROW(policies.make("sequence", "looptune-v0", {{"actions", {12}}}), ConfigError);
  EXPECT_THROW(policies.make("sequence", "looptune-v0", {{"actions", "down"}}), ConfigError);
}

// looptune imitate's labels: each state's label is the first action of the best plan from it,
// played by the teachers they reach at least that plan's GFLOPS, and they repeat.
TEST(LooptuneTeacherLabels, EachStateIsLabelledWithTheFirstActionOfTheBestPlanFromIt) {
  auto data = std::make_shared<DataStore>();
  Registry envs;
  register_looptune(envs, data);
  auto made = envs.make("looptune-v0", {{"kernel", "matmul:96x80x72"}});
  auto& env = dynamic_cast<LooptuneEnv&>(*made);
  TeacherSearch beam;
  beam.budget.evaluations = 200;
  LabelledStates labels;
  const LabelledEpisode episode = label_episode(env, 4, {beam}, nullptr, labels);
  ASSERT_EQ(labels.actions.size(), 10u);
  EXPECT_EQ(episode.states, 10);
  ASSERT_EQ(labels.observations.front().size(), env.observation_space().flat_size());

  env.reset(4);
  Rng rng(0);
  const SearchResult plan = run_search(
      SearchKind::kBeamDfs, 2, env.schedule(), 10,
      [&env](const Schedule& s, Action a) { return env.after(s, a); },
      [&env](const LoopNest& nest) { return env.gflops(nest); }, beam.budget, rng);
  ASSERT_FALSE(plan.actions.empty());
  EXPECT_EQ(labels.actions.front(), static_cast<int>(plan.actions.front()));
  EXPECT_GE(episode.best_speedup * env.gflops(env.schedule().nest), plan.gflops * (1 - 1e-12))
      << "re-planning at every state reaches at least the first plan";

  LabelledStates again;
  label_episode(env, 4, {beam}, nullptr, again);
  EXPECT_EQ(again.actions, labels.actions);
  EXPECT_EQ(again.observations, labels.observations);

  TeacherSearch timed = beam;
  timed.budget.seconds = 1;
  EXPECT_THROW(label_episode(env, 4, {timed}, nullptr, again), ConfigError);
  EXPECT_THROW(label_episode(env, 4, {}, nullptr, again), ConfigError);
}

}  // namespace
}  // namespace sysgym::looptune
