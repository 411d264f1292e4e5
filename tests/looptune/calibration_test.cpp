// Calibrating the cost model: Spearman's correlation as the textbook defines it, random nests
// that are distinct, legal and compute the reference, and a fit that recovers a known model.
#include <gtest/gtest.h>

#include <set>

#include "base/rank_stats.hpp"
#include "looptune/calibration.hpp"
#include "looptune/executor.hpp"
#include "looptune/limits.hpp"
#include "looptune/problems.hpp"

namespace sysgym::looptune {
namespace {

TEST(RankStats, SpearmanOrdersPairsAndSharesTiedRanks) {
  const std::vector<double> x = {1, 2, 3, 4, 5};
  EXPECT_DOUBLE_EQ(spearman(x, std::vector<double>{2, 4, 8, 16, 1000}), 1.0);
  EXPECT_DOUBLE_EQ(spearman(x, std::vector<double>{5, 4, 3, 2, 1}), -1.0);
  EXPECT_EQ(ranks(std::vector<double>{10, 20, 20, 5}), (std::vector<double>{1, 2.5, 2.5, 0}));
  // d = (0, 0, 1, -1, 0): 1 - 6 * 2 / (5 * 24) without ties.
  EXPECT_NEAR(spearman(x, std::vector<double>{1, 2, 4, 3, 5}), 0.9, 1e-12);
  EXPECT_EQ(spearman(x, std::vector<double>{3, 3, 3, 3, 3}), 0.0);
  EXPECT_THROW(spearman(x, std::vector<double>{1}), std::invalid_argument);
  EXPECT_NEAR(geometric_mean(std::vector<double>{2, 8}), 4.0, 1e-12);
}

TEST(RankStats, PairOrderCountsOnlyPairsTheMeasurementTellsApart) {
  // Measured 100, 101, 120, 150: at a 5 % gap the pair (100, 101) is too close; of the other
  // five, the model orders two alike, two the wrong way ((100, 150), (120, 150)), ties one.
  const std::vector<double> measured = {100, 101, 120, 150};
  const std::vector<double> model = {1, 0, 1, 0.5};
  const PairOrder o = pair_order(model, measured, 0.05);
  EXPECT_NEAR(o.apart, 5.0 / 6.0, 1e-12);
  EXPECT_NEAR(o.ordered, 2.5 / 5.0, 1e-12);
  EXPECT_EQ(pair_order(model, std::vector<double>{100, 101, 102, 103}, 0.05).apart, 0.0);
  EXPECT_THROW(pair_order(model, std::vector<double>{1}, 0.05), std::invalid_argument);
}

TEST(LooptuneCalibration, RandomNestsAreDistinctLegalAndComputeTheReference) {
  for (const char* spec : {"matmul:48x32x64", "conv3x3:1x4x8x6x6"}) {
    const auto problem = problem_from_spec(spec);
    const Operands in = make_operands(*problem, 3);
    std::vector<float> expected = in.out;
    reference(*problem, in.a.data(), in.b.data(), expected.data());
    for (bool annotations : {false, true}) {
      const std::vector<LoopNest> nests = random_nests(problem, 60, 5, 10, annotations);
      EXPECT_EQ(nests.size(), 60u) << spec;
      std::set<std::uint64_t> hashes;
      std::set<std::size_t> depths;
      for (const LoopNest& nest : nests) {
        hashes.insert(nest.hash());
        depths.insert(nest.size());
        EXPECT_LE(nest.size(), 10u);
        std::vector<float> out = in.out;
        Executor(nest, annotations).run(in.a.data(), in.b.data(), out.data());
        ASSERT_EQ(out, expected) << spec << "\n" << nest.to_text();
      }
      EXPECT_EQ(hashes.size(), nests.size());
      EXPECT_GE(depths.size(), 3u) << "nests of varied depth";
      // The same seed draws the same nests.
      const std::vector<LoopNest> again = random_nests(problem, 60, 5, 10, annotations);
      ASSERT_EQ(again.size(), nests.size());
      for (std::size_t i = 0; i < nests.size(); ++i)
        EXPECT_EQ(again[i].hash(), nests[i].hash());
    }
  }
}

TEST(LooptuneCalibration, TheFitRecoversAModelsFiguresFromItsOwnSamples) {
  CostModel truth;
  truth.vector_points_per_ns = 9;
  truth.unit_points_per_ns = 5;
  truth.strided_points_per_ns = 1.2;
  truth.call_ns = 9;
  std::vector<CalibrationSample> samples;
  for (const char* spec : {"matmul:128x96x64", "matmul:64x256x160"}) {
    const auto problem = problem_from_spec(spec);
    for (const LoopNest& nest : random_nests(problem, 80, 1, 10, false))
      samples.push_back({nest, truth.gflops(nest, false)});
  }
  const CostModel start;
  const double before = model_log_error(start, samples, false);
  const CostModel fitted = fit_cost_model(start, samples, false);
  EXPECT_LT(model_log_error(fitted, samples, false), before / 20);
  EXPECT_GT(model_spearman(fitted, samples, false), 0.97);
  EXPECT_EQ(fitted.l1_bytes, start.l1_bytes) << "cache sizes are the machine's, not fitted";
}

}  // namespace
}  // namespace sysgym::looptune
