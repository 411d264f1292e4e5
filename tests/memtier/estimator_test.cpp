#include "memtier/estimator.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "base/error.hpp"
#include "base/rng.hpp"
#include "memtier/trace_builder.hpp"
#include "memtier/traces/synth.hpp"

namespace sysgym::memtier {
namespace {

using testing::make_trace;
using testing::memai_options;

const HbmRanges kEverything({{0, std::numeric_limits<std::uint64_t>::max()}});

// Two windows of 3 DDR samples that share sample 2: pages A (samples 0, 1), B (2), C (3, 4).
PreparedPair hand_built_pair() {
  const TracePair pair{
      make_trace("d", {0, 1, 2, 3, 4}, {}, {0x100000, 0x100008, 0x200000, 0x300000, 0x300010}),
      make_trace("h", {0, 0.5, 1, 1.5, 2})};
  return prepare_pair(pair, memai_options(2.0));
}

TEST(Estimator, FollowsTheDifferentialFormulaOnAHandBuiltPair) {
  const PreparedPair pair = hand_built_pair();
  const Estimator estimator(pair);
  // A in HBM: window 0 has 2 of 3 samples there: 2 - (2 - 1) * 2/3; window 1 stays at 2.
  EXPECT_DOUBLE_EQ(estimator.estimate(HbmRanges({{0x100000, 0x102000}})).estimated_ms,
                   4.0 / 3.0 + 2.0);
  // B's one sample counts in both windows (it lies on their shared boundary).
  EXPECT_DOUBLE_EQ(estimator.estimate(HbmRanges({{0x200000, 0x202000}})).estimated_ms, 10.0 / 3.0);
  // A page is in HBM when its start lies in a range, whatever part of it the range covers.
  EXPECT_DOUBLE_EQ(estimator.estimate(HbmRanges({{0x100000, 0x100001}})).estimated_ms, 10.0 / 3.0);
  EXPECT_DOUBLE_EQ(estimator.estimate(HbmRanges({{0x100001, 0x102000}})).estimated_ms, 4.0);
}

TEST(Estimator, HbmFactorWeightsHbmSamples) {
  const PreparedPair pair = hand_built_pair();
  // Window 0: (t_ddr n_ddr + t_hbm n_hbm / f) / n = (2 * 1 + 1 * 2 / 2) / 3 = 1.
  EXPECT_DOUBLE_EQ(Estimator(pair).estimate(HbmRanges({{0x100000, 0x102000}}), 2.0).estimated_ms,
                   3.0);
  EXPECT_THROW(Estimator(pair).estimate(HbmRanges(), 0.0), ConfigError);
}

TEST(Estimator, WindowsWithoutDdrSamplesCostTheirDdrTime) {
  // The middle window has HBM samples but no DDR sample: it costs its DDR time (0 ms) even with
  // everything in HBM, so the estimate (3 + 0 + 3) differs from the HBM run (9 ms).
  const TracePair pair{make_trace("d", {0, 1, 2, 10}), make_trace("h", {0, 3, 6, 9})};
  const PreparedPair prepared = prepare_pair(pair, memai_options(3.3));
  const Estimate e = Estimator(prepared).estimate(kEverything);
  EXPECT_EQ(e.empty_windows, 1u);
  EXPECT_DOUBLE_EQ(e.estimated_ms, 6.0);
  EXPECT_DOUBLE_EQ(e.hbm_ms, 9.0);
}

struct Case {
  std::string pattern;
  WindowMode mode;
};

void PrintTo(const Case& c, std::ostream* out) {
  *out << c.pattern << "/" << window_mode_name(c.mode);
}

class EstimatorOnSyntheticPairs : public ::testing::TestWithParam<Case> {
 protected:
  TracePair traces() const {
    SynthOptions o;
    o.pattern = GetParam().pattern;
    o.samples = 30000;
    o.seed = 11;
    return synthesize_pair(o);
  }
  WindowOptions options() const {
    WindowOptions w;
    w.mode = GetParam().mode;
    if (w.mode == WindowMode::kMemai) w.window_len = 50.0;  // ms: tens of windows
    return w;
  }
  PreparedPair prepare() const { return prepare_pair(traces(), options()); }
};

TEST_P(EstimatorOnSyntheticPairs, NothingInHbmGivesExactlyTheDdrRunsTime) {
  const PreparedPair pair = prepare();
  const Estimate e = Estimator(pair).estimate(HbmRanges());
  EXPECT_EQ(e.estimated_ms, e.ddr_ms);
  EXPECT_EQ(e.ddr_ms, static_cast<double>(pair.ddr_total_ticks) / pair.ticks_per_ms);
}

TEST_P(EstimatorOnSyntheticPairs, EverythingInHbmGivesExactlyTheHbmRunsTime) {
  const PreparedPair pair = prepare();
  const Estimate e = Estimator(pair).estimate(kEverything);
  ASSERT_EQ(e.empty_windows, 0u);
  EXPECT_EQ(e.estimated_ms, e.hbm_ms);
  EXPECT_EQ(e.samples_in_hbm, e.samples);
}

TEST_P(EstimatorOnSyntheticPairs, MatchesABruteForceSumOverSamples) {
  const TracePair pair_traces = traces();
  const PreparedPair pair = prepare_pair(pair_traces, options());
  const WindowSet set = make_windows(pair_traces, options());
  Rng rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    HbmRanges ranges;
    // Few ranges (per-range searches) and many (the page-mask pass).
    for (int k = 0; k < (trial < 10 ? 1 + trial % 4 : 100); ++k) {
      const std::uint64_t page = pair.pages[rng.below(pair.pages.size())];
      ranges.add({page, page + (rng.below(4096) + 1) * pair.page_bytes()});
    }
    double expected = 0.0;
    for (const Window& win : set.windows) {
      const double t_ddr = static_cast<double>(win.ddr_ticks) / set.ticks_per_ms;
      const double t_hbm = static_cast<double>(win.hbm_ticks) / set.ticks_per_ms;
      if (win.empty()) {
        expected += t_ddr;
        continue;
      }
      double in_hbm = 0;
      for (std::uint64_t s = win.ddr_begin; s < win.ddr_end; ++s) {
        const std::uint64_t page_start = pair_traces.ddr.vaddr[s] & ~(pair.page_bytes() - 1);
        in_hbm += ranges.contains(page_start) ? 1 : 0;
      }
      expected +=
          t_ddr - (t_ddr - t_hbm) * in_hbm / static_cast<double>(win.ddr_end - win.ddr_begin);
    }
    EXPECT_NEAR(Estimator(pair).estimate(ranges).estimated_ms, expected, 1e-9 * expected);
  }
}

INSTANTIATE_TEST_SUITE_P(
    PatternsAndModes, EstimatorOnSyntheticPairs,
    ::testing::Values(Case{"stream", WindowMode::kMemai}, Case{"stream", WindowMode::kAligned},
                      Case{"phased", WindowMode::kMemai}, Case{"phased", WindowMode::kAligned},
                      Case{"random", WindowMode::kAligned}, Case{"stencil", WindowMode::kMemai},
                      Case{"family", WindowMode::kAligned}, Case{"family", WindowMode::kMemai}),
    [](const auto& info) {
      return info.param.pattern + (info.param.mode == WindowMode::kMemai ? "Memai" : "Aligned");
    });

SynthOptions synthetic(const std::string& pattern, std::uint64_t samples) {
  SynthOptions o;
  o.pattern = pattern;
  o.samples = samples;
  return o;
}

WindowOptions aligned_windows() {
  WindowOptions w;
  w.mode = WindowMode::kAligned;
  return w;
}

TEST(Estimator, AddingRangesNeverIncreasesTheTimeWhenHbmIsFasterInEveryWindow) {
  const PreparedPair pair =
      prepare_pair(synthesize_pair(synthetic("stream", 30000)), aligned_windows());
  for (std::size_t i = 0; i < pair.window_count(); ++i)
    ASSERT_LE(pair.hbm_ticks[i], pair.ddr_ticks[i]);
  Rng rng(3);
  HbmRanges ranges;
  double previous = Estimator(pair).estimate(ranges).estimated_ms;
  for (int step = 0; step < 200; ++step) {
    const std::uint64_t page = pair.pages[rng.below(pair.pages.size())];
    ranges.add({page, page + (rng.below(64) + 1) * pair.page_bytes()});
    const double now = Estimator(pair).estimate(ranges).estimated_ms;
    ASSERT_LE(now, previous) << "step " << step;
    previous = now;
  }
  EXPECT_LT(previous, pair.ddr_ms());
}

TEST(Estimator, RelativeErrorAgainstAMeasuredRun) {
  EXPECT_DOUBLE_EQ(relative_error(95.0, 100.0), 0.05);
  EXPECT_DOUBLE_EQ(relative_error(105.0, 100.0), 0.05);
  EXPECT_THROW(relative_error(1.0, 0.0), ConfigError);
}

TEST(Estimator, SyntheticMixedRunIsEstimatedWithinAFewPercent) {
  const SynthOptions o = synthetic("phased", 50000);
  const PreparedPair pair = prepare_pair(synthesize_pair(o), aligned_windows());
  const HbmRanges hot({{0x7f3a00000000, 0x7f3a01000000}});  // phase 0's hot set
  const Trace measured = synthesize_mixed(o, hot);
  const double measured_ms = static_cast<double>(measured.span_ticks()) / pair.ticks_per_ms;
  const Estimate e = Estimator(pair).estimate(hot);
  EXPECT_LT(e.estimated_ms, e.ddr_ms);
  EXPECT_GT(e.estimated_ms, e.hbm_ms);
  EXPECT_LT(relative_error(e.estimated_ms, measured_ms), 0.03);
}

}  // namespace
}  // namespace sysgym::memtier
