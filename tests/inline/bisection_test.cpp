#include "inline/bisection.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "base/error.hpp"
#include "inline/calibration.hpp"

namespace sysgym::inlining {
namespace {

// main calls leaf k (k = 0..n-1) at line k; leaf k is called 10 x (k + 1) times.
Program fan(std::size_t n) {
  Program p;
  p.name = "fan";
  p.units = {"f.c"};
  p.functions.push_back({"main", 0, false, 10, 1, 0, 100, {}});
  for (std::size_t k = 0; k < n; ++k) {
    p.functions.push_back({"leaf" + std::to_string(k), 0, true, 5, 1, 1, 20, {}});
    CallSite s;
    s.caller = 0;
    s.callee = k + 1;
    s.location = "main:" + std::to_string(k) + ":3";
    s.id = site_id("f.c", s.location, p.functions.back().name);
    s.calls = 10.0 * static_cast<double>(k + 1);
    p.sites.push_back(s);
  }
  return p;
}

// Runs a bisection to its end with `measure` standing in for real mode.
Bisection run(const Program& p, const Decisions& from, const Decisions& to,
              const std::function<double(const Decisions&)>& measure, double min_share = 0.25) {
  Bisection b(p, from, to, min_share);
  b.set_ends(measure(b.ends().first), measure(b.ends().second));
  while (!b.done()) {
    const auto [first, second] = b.next();
    b.record(measure(first), measure(second));
  }
  return b;
}

std::size_t site_of(const Bisection& b, std::size_t left) {
  return b.groups()[b.left()[left]].sites.front();
}

TEST(Bisection, FindsTheOneDecisionThatAccountsForAnAdditiveChange) {
  const Program p = fan(9);
  // Inlining site k costs k units, site 3 a thousand: it is the one to find.
  const auto measure = [](const Decisions& d) {
    double v = 0;
    for (std::size_t k = 0; k < d.size(); ++k)
      v += d[k] ? (k == 3 ? 1000.0 : static_cast<double>(k)) : 0.0;
    return v;
  };
  const Bisection b = run(p, decision_set(p, "never"), decision_set(p, "always"), measure);
  EXPECT_EQ(b.stop_reason(), "one call group left");
  ASSERT_EQ(b.left().size(), 1u);
  EXPECT_EQ(site_of(b, 0), 3u);
  EXPECT_EQ(b.left_effect(), 1000);
  EXPECT_EQ(b.to_value() - b.from_value(), 1033);
  // 9 groups: 9 -> 5 or 4 -> ... one step per halving.
  EXPECT_LE(b.steps().size(), 4u);
}

TEST(Bisection, FollowsAChangeThatSaves) {
  const Program p = fan(4);
  // From everything inlined to nothing: keeping site 3 a call saves 100, site 0 costs 30.
  const auto measure = [](const Decisions& d) {
    return (d[0] ? 0.0 : 30.0) + (d[3] ? 100.0 : 0.0);
  };
  const Bisection b = run(p, decision_set(p, "always"), decision_set(p, "never"), measure);
  ASSERT_EQ(b.left().size(), 1u);
  EXPECT_EQ(site_of(b, 0), 3u);
  EXPECT_EQ(b.left_effect(), -100);
}

TEST(Bisection, StopsWhereTheEffectNeedsDecisionsFromBothHalves) {
  const Program p = fan(8);
  // Only sites 0 and 7 together cost anything; groups go hottest first, so they land in
  // different halves at once.
  const auto measure = [](const Decisions& d) { return d[0] && d[7] ? 500.0 : 0.0; };
  const Bisection b = run(p, decision_set(p, "never"), decision_set(p, "always"), measure);
  EXPECT_NE(b.stop_reason().find("not additive"), std::string::npos);
  EXPECT_EQ(b.left().size(), 8u);
  EXPECT_EQ(b.left_effect(), 500);
  ASSERT_EQ(b.steps().size(), 1u);
  EXPECT_EQ(b.steps()[0].first, 0);
  EXPECT_EQ(b.steps()[0].second, 0);
}

TEST(Bisection, GroupsAreWhatClangDecidesOnceHottestFirst) {
  Program p = fan(3);
  // Site 2's call, copied into an always_inline body: one decision with two sites.
  CallSite copy = p.sites[2];
  copy.location = p.sites[2].location + " @ main:9:1";
  copy.id = site_id("f.c", copy.location, "leaf2");
  p.sites.push_back(copy);
  // A call clang never inlines is no decision, whatever the sets say.
  CallSite never = p.sites[0];
  never.location = "main:20:3";
  never.never = "varargs";
  p.sites.push_back(never);
  const Decisions from(p.sites.size(), false);
  Decisions to(p.sites.size(), true);
  to[0] = false;
  const std::vector<CallGroup> groups = differing_groups(p, from, to);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].sites, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(groups[0].calls, 60);
  EXPECT_EQ(groups[1].sites, (std::vector<std::size_t>{1}));
  // Asking for one copy inlines the call: the sets below decide alike.
  Decisions one_copy = from;
  one_copy[3] = true;
  Decisions other_copy = from;
  other_copy[2] = true;
  EXPECT_THROW(Bisection(p, one_copy, other_copy, 0.25), ConfigError);
}

TEST(Bisection, RefusesSetsThatDecideAlikeAndSharesOutOfRange) {
  const Program p = fan(3);
  try {
    Bisection(p, decision_set(p, "never"), decision_set(p, "never"), 0.25);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("nothing to bisect"), std::string::npos);
  }
  EXPECT_THROW(Bisection(p, decision_set(p, "never"), decision_set(p, "always"), 0), ConfigError);
}

TEST(SampleDecisions, NamesTheSampleThatIsMissingOrAnotherPrograms) {
  const Program p = fan(3);
  const nlohmann::json samples = {
      {"kind", "sysgym-inline-samples"},
      {"schema_version", 1},
      {"samples",
       {{{"program", "other"}, {"decisions", "01"}, {"text_bytes", 1}},
        {{"program", "fan"}, {"decisions", "011"}, {"text_bytes", 1}, {"instructions", 5}}}}};
  EXPECT_EQ(sample_decisions(p, samples, 1, "s.json"), (Decisions{false, true, true}));
  try {
    sample_decisions(p, samples, 0, "s.json");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "s.json sample 0 is of program 'other', not 'fan'");
  }
  try {
    sample_decisions(p, samples, 2, "s.json");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "s.json: no sample 2; it holds 2 (numbered from 0)");
  }
}

}  // namespace
}  // namespace sysgym::inlining
