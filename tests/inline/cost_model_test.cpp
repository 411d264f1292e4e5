#include "inline/cost_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "base/error.hpp"
#include "inline/anneal.hpp"
#include "inline/calibration.hpp"

namespace sysgym::inlining {
namespace {

// A program of three functions: main calls helper (static, called once) and leaf twice through
// helper: main -> helper (site 0), helper -> leaf (site 1), main -> leaf (site 2).
Program three() {
  Program p;
  p.name = "three";
  p.units = {"t.c"};
  const auto fn = [](const char* name, bool local, std::int64_t bytes, std::int64_t calls_in) {
    Function f;
    f.name = name;
    f.local = local;
    f.text_bytes = bytes;
    f.calls_in = calls_in;
    f.properties = {{"Uses", local ? calls_in : calls_in + 1}};
    return f;
  };
  p.functions = {fn("main", false, 200, 0), fn("helper", true, 100, 1), fn("leaf", true, 20, 2)};
  const auto site = [](std::size_t caller, std::size_t callee, double calls, std::int64_t consts) {
    CallSite s;
    s.caller = caller;
    s.callee = callee;
    s.calls = calls;
    s.features = {{"NumConstantArgs", consts}, {"NumInstructionsSimplified", 2}};
    return s;
  };
  p.sites = {site(0, 1, 10, 0), site(1, 2, 1000, 1), site(0, 2, 5, 0)};
  p.reference["never"] = {400, 1e6};  // 80 bytes of text are no function's
  return p;
}

TEST(CostModel, NothingInlinedIsTheMeasuredProgram) {
  const Program p = three();
  const ProgramModel m(p);
  const Estimate e = m.estimate(CostModel{}, decision_set(p, "never"));
  EXPECT_EQ(e.text_bytes, 400);
  EXPECT_EQ(e.instructions, 1e6);
}

TEST(CostModel, InliningGrowsCallersSavesCallsAndDeletesDeadStatics) {
  const Program p = three();
  const ProgramModel m(p);
  CostModel c;
  c.alpha = 1;
  c.call_bytes = 5;
  c.const_arg_bytes = 0;
  c.function_bytes = 0;
  c.call_instr = 4;
  c.const_arg_instr = 1;
  c.simplified_instr = 0;
  // helper -> leaf only: helper grows by leaf - a call; leaf stays (main still calls it).
  Estimate e = m.estimate(c, {false, true, false});
  EXPECT_EQ(e.text_bytes, 400 + 20 - 5);
  EXPECT_EQ(e.instructions, 1e6 - 1000 * (4 + 1));
  // Both calls of leaf inlined: leaf is deleted.
  e = m.estimate(c, {false, true, true});
  EXPECT_EQ(e.text_bytes, 400 + 2 * (20 - 5) - 20);
  // Everything: helper (grown by leaf) is copied into main and deleted.
  e = m.estimate(c, {true, true, true});
  EXPECT_EQ(e.text_bytes, 80 + 200 + (100 + 20 - 5 - 5) + (20 - 5));
  // A deleted function also takes its alignment and prologue with it.
  c.function_bytes = 16;
  EXPECT_EQ(m.estimate(c, {true, true, true}).text_bytes,
            80 + 200 + (100 + 20 - 5 - 5) + (20 - 5) - 2 * 16);
  EXPECT_THROW(m.estimate(c, {true}), ConfigError);
}

TEST(CostModel, FittingRecoversTheParametersThatMadeTheSamples) {
  const Program p = three();
  const ProgramModel m(p);
  CostModel truth;
  truth.alpha = 0.8;
  truth.call_bytes = 6;
  truth.const_arg_bytes = 3;
  truth.function_bytes = 11;
  truth.call_instr = 7;
  truth.const_arg_instr = 2;
  truth.simplified_instr = 0.5;
  truth.growth_instr = 30;
  std::vector<CalibrationSample> samples;
  for (int bits = 0; bits < 8; ++bits) {
    const Decisions d = {(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0};
    const Estimate e = m.estimate(truth, d);
    samples.push_back({0, d, e.text_bytes, e.instructions});
  }
  const CostModel fitted = fit_cost_model({&m}, samples);
  EXPECT_NEAR(fitted.alpha, 0.8, 1e-9);
  EXPECT_NEAR(fitted.call_bytes, 6, 1e-6);
  EXPECT_NEAR(fitted.function_bytes, 11, 1e-6);
  const Fit fit = model_fit(fitted, {&m}, samples);
  EXPECT_NEAR(fit.size_error, 0, 1e-9);
  EXPECT_NEAR(fit.instructions_error, 0, 1e-9);
  EXPECT_NEAR(fit.size_spearman, 1, 1e-9);
}

TEST(CostModel, ParametersAndSamplesFilesNameWhatIsWrong) {
  EXPECT_THROW(CostModel::from_json({{"alhpa", 1}}, "m.json"), ConfigError);
  EXPECT_EQ(CostModel::from_json({{"alpha", 0.5}}, "m.json").alpha, 0.5);
  const Program p = three();
  Rng rng(1);
  const std::vector<Decisions> sets = calibration_sets(p, 10, rng);
  ASSERT_EQ(sets.size(), 14u);  // never, always, O2, Oz and 10 random
  EXPECT_EQ(sets[0], Decisions(3, false));
  EXPECT_EQ(sets[1], Decisions(3, true));
  std::vector<CalibrationSample> samples = {{0, sets[5], 410, 9e5}};
  const nlohmann::json j = samples_to_json({&p}, samples);
  const auto back = samples_from_json({&p}, j, "s.json");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].decisions, sets[5]);
  nlohmann::json bad = j;
  bad["samples"][0]["decisions"] = "01";
  EXPECT_THROW(samples_from_json({&p}, bad, "s.json"), ConfigError);
  bad = j;
  bad["samples"][0]["program"] = "other";
  EXPECT_THROW(samples_from_json({&p}, bad, "s.json"), ConfigError);
}

// Four sites to a hex digit, the first the highest bit; version 1's one digit a site still reads.
TEST(CostModel, SamplesHoldFourDecisionsToAHexDigit) {
  Program p;
  p.name = "five";
  p.sites.resize(5);
  const Decisions d = {true, false, true, true, true};
  const nlohmann::json j = samples_to_json({&p}, {{0, d, 100, 0}});
  EXPECT_EQ(j["schema_version"], 2);
  EXPECT_EQ(j["samples"][0]["decisions"], "b8");
  EXPECT_EQ(samples_from_json({&p}, j, "s.json")[0].decisions, d);
  nlohmann::json v1 = j;
  v1["schema_version"] = 1;
  v1["samples"][0]["decisions"] = "10111";
  EXPECT_EQ(samples_from_json({&p}, v1, "s.json")[0].decisions, d);
  EXPECT_EQ(sample_decisions(p, v1, 0, "s.json"), d);
  for (const char* wrong : {"bc", "b", "b8f", "g8"}) {  // a bit past the sites, short, long, no hex
    nlohmann::json bad = j;
    bad["samples"][0]["decisions"] = wrong;
    try {
      samples_from_json({&p}, bad, "s.json");
      ADD_FAILURE() << wrong;
    } catch (const ConfigError& e) {
      EXPECT_STREQ(e.what(),
                   "s.json sample 0: 'decisions' is not one hex digit per four sites of 'five' (5 "
                   "sites)");
    }
  }
}

// helper is always_inline: main's call to leaf is a copy of helper's (one key where it was
// written), so inlining either copy inlines both, as clang's replay does.
TEST(CostModel, CopiesOfOneCallAreOneDecision) {
  Program p = three();
  p.sites[1].location = "helper:1:5";
  p.sites[2].location = "helper:1:5 @ main:3:2";
  p.sites[0].location = "main:1:1";
  const ProgramModel m(p);
  EXPECT_EQ(m.as_compiled({false, false, true}), (Decisions{false, true, true}));
  const Estimate both = m.estimate(CostModel{}, {false, true, true});
  EXPECT_EQ(m.estimate(CostModel{}, {false, true, false}).text_bytes, both.text_bytes);
  EXPECT_EQ(m.estimate(CostModel{}, {false, false, true}).instructions, both.instructions);
  EXPECT_EQ(ProgramModel(three()).as_compiled({false, false, true}),
            (Decisions{false, false, true}));
}

TEST(Calibration, RandomSetsSpreadTheirSharesUpToTheLargestAsked) {
  const Program p = three();
  Rng rng(8);
  const std::vector<Decisions> sets = calibration_sets(p, 400, rng, 0.25);
  ASSERT_EQ(sets.size(), 4u + 400u);  // never, always, O2, Oz first
  std::size_t inlined = 0, in_last_tenth = 0;
  for (std::size_t k = 4; k < sets.size(); ++k) {
    const auto n = static_cast<std::size_t>(std::count(sets[k].begin(), sets[k].end(), true));
    inlined += n;
    if (k >= 364) in_last_tenth += n;
  }
  EXPECT_NEAR(static_cast<double>(inlined) / (400 * 3), 0.125, 0.03);  // shares 0 .. 0.25
  EXPECT_NEAR(static_cast<double>(in_last_tenth) / (40 * 3), 0.2375, 0.08);
}

// leaf takes varargs: its two sites are no decision anywhere.
TEST(CostModel, SitesClangNeverInlinesStayCalls) {
  Program p = three();
  p.sites[1].never = p.sites[2].never = "varargs";
  const ProgramModel m(p);
  EXPECT_EQ(m.bottom_up_sites(), (std::vector<std::size_t>{0}));
  EXPECT_EQ(decision_set(p, "always"), (Decisions{true, false, false}));
  EXPECT_EQ(m.as_compiled({true, true, true}), (Decisions{true, false, false}));
  const Estimate all = m.estimate(CostModel{}, {true, true, true});
  EXPECT_EQ(all.text_bytes, m.estimate(CostModel{}, {true, false, false}).text_bytes);
  EXPECT_EQ(all.instructions, m.estimate(CostModel{}, {true, false, false}).instructions);
  Rng rng(3);
  for (const Decisions& d : calibration_sets(p, 20, rng))
    EXPECT_FALSE(d[1] || d[2]);
  const auto cost = [&](const Decisions& d) { return m.estimate(CostModel{}, d).text_bytes; };
  const AnnealResult r = anneal(p, cost, decision_set(p, "never"), {50, 0.04, 0.001, 1, true});
  for (const Decisions& d : r.evaluated)
    EXPECT_FALSE(d[1] || d[2]);
  p.sites[0].never = "noinline";
  EXPECT_THROW(anneal(p, cost, decision_set(p, "never"), {}), ConfigError);
}

TEST(Anneal, FindsTheBruteForceOptimumOfASmallProgram) {
  const Program p = three();
  const ProgramModel m(p);
  Scoring scoring;
  scoring.objective = Objective::kMix;
  scoring.baseline = m.estimate(scoring.model, decision_set(p, "never"));
  const auto cost = [&](const Decisions& d) { return relative_cost(m, scoring, d); };
  double optimum = 1e300;
  for (int bits = 0; bits < 8; ++bits)
    optimum = std::min(optimum, cost({(bits & 1) != 0, (bits & 2) != 0, (bits & 4) != 0}));
  const AnnealResult r = anneal(p, cost, decision_set(p, "never"), {200, 0.04, 0.001, 7});
  EXPECT_DOUBLE_EQ(r.best_cost, optimum);
  EXPECT_DOUBLE_EQ(cost(r.best), r.best_cost);
  EXPECT_EQ(r.costs.size(), 200u);
  EXPECT_LE(r.best_cost, r.start_cost);
  // The same seed, the same walk.
  EXPECT_EQ(anneal(p, cost, decision_set(p, "never"), {200, 0.04, 0.001, 7}).costs, r.costs);
  EXPECT_THROW(anneal(p, cost, {true}, {}), ConfigError);
  EXPECT_THROW(anneal(p, cost, decision_set(p, "never"), {10, 0.001, 0.04, 0}), ConfigError);
}

}  // namespace
}  // namespace sysgym::inlining
