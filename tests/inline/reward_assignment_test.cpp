#include "inline/reward_assignment.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace sysgym::inlining {
namespace {

// main calls a, b and c; a calls c. Four sites: main->a (0), main->b (1), main->c (2), a->c (3).
Program four_sites() {
  Program p;
  p.name = "four";
  for (const char* name : {"main", "a", "b", "c"}) {
    Function f;
    f.name = name;
    f.text_bytes = 50;
    p.functions.push_back(f);
  }
  const auto site = [](std::size_t caller, std::size_t callee) {
    CallSite s;
    s.caller = caller;
    s.callee = callee;
    return s;
  };
  p.sites = {site(0, 1), site(0, 2), site(0, 3), site(1, 3)};
  p.reference["never"] = {200, 1e6};
  return p;
}

// An additive cost with known effects: inlining site s changes the cost by effect[s].
const std::vector<double> kEffect = {-0.02, 0.01, -0.005, 0.03};
double additive_cost(const Decisions& d) {
  double c = 1;
  for (std::size_t s = 0; s < d.size(); ++s)
    c += d[s] ? kEffect[s] : 0;
  return c;
}

Exploration explore(const Program& p, std::uint64_t runs) {
  Exploration e;
  for (std::uint64_t r = 0; r < runs; ++r)
    e.append(anneal(p, additive_cost, decision_set(p, "never"), {60, 0.04, 0.001, r, true}));
  return e;
}

TEST(RewardAssignment, RecoversEachDecisionsEffectFromTheAnnealersMutations) {
  const Program p = four_sites();
  const ProgramModel m(p);
  const Exploration e = explore(p, 4);
  ASSERT_EQ(e.sets.size(), 4u * 61);
  for (const auto& method : {Regression::kRidge, Regression::kLasso}) {
    const RewardAssignment a = assign_rewards(m, e, decision_set(p, "never"), {method, 0, 0});
    EXPECT_EQ(a.varied, 4u);
    EXPECT_NEAR(a.r_squared, 1, 1e-9);
    for (std::size_t s = 0; s < 4; ++s)
      EXPECT_NEAR(a.coefficient[s], kEffect[s], 1e-9) << s;
    EXPECT_EQ(labelled_decisions(a, decision_set(p, "never")),
              (Decisions{true, false, true, false}));
  }
}

TEST(RewardAssignment, ADecisionTakesItsCalleesCreditsDecayedAndAMarginLeavesSmallOnesOut) {
  const Program p = four_sites();
  const ProgramModel m(p);
  const Exploration e = explore(p, 4);
  // In the best set a->c (site 3) is inlined: main->a copies it, so takes half its credit.
  const Decisions best = {false, false, false, true};
  const RewardAssignment a = assign_rewards(m, e, best, {Regression::kRidge, 0, 0.5, 0.008});
  EXPECT_NEAR(a.credit[0], -0.02 + 0.5 * 0.03, 1e-9);
  EXPECT_NEAR(a.credit[3], 0.03, 1e-9);
  EXPECT_EQ(a.label[0], Label::kNone);  // |-0.005| is within the margin
  EXPECT_EQ(a.label[1], Label::kKeep);
  EXPECT_EQ(a.label[2], Label::kNone);
  EXPECT_EQ(a.label[3], Label::kKeep);
  // A large penalty shrinks every coefficient towards zero.
  const RewardAssignment shrunk = assign_rewards(m, e, best, {Regression::kRidge, 10, 0});
  EXPECT_LT(std::abs(shrunk.coefficient[3]), 0.01);
}

TEST(RewardAssignment, NamesWhatItCannotLearnFrom) {
  const Program p = four_sites();
  const ProgramModel m(p);
  Exploration none;
  none.append(anneal(p, additive_cost, decision_set(p, "never"), {1, 0.04, 0.001, 0, true}));
  none.sets.resize(1);
  none.costs.resize(1);
  none.parent.resize(1);
  EXPECT_THROW(assign_rewards(m, none, decision_set(p, "never"), {}), ConfigError);
  const Exploration e = explore(p, 1);
  EXPECT_THROW(assign_rewards(m, e, {true}, {}), ConfigError);
  EXPECT_THROW(assign_rewards(m, e, decision_set(p, "never"), {Regression::kRidge, 0, 2}),
               ConfigError);
  EXPECT_THROW(regression_from_name("ols"), UnknownNameError);
}

}  // namespace
}  // namespace sysgym::inlining
