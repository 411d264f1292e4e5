#include "agents/bin_view.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "support/errors.hpp"

namespace sysgym::agents {
namespace {

// 3 bins, channels: hist, resident, hist_prev_1; then 2 scalars.
const std::vector<float> kObservation = {0.5f,  0.9f, 0.5f,  // hist
                                         1.0f,  0.0f, 0.6f,  // resident
                                         0.0f,  0.1f, 0.4f,  // hist_prev_1
                                         0.25f, 0.75f};      // scalars

TEST(BinView, EachBinSeesItsChannelsItsHotnessRanksAndTheScalars) {
  const BinView view = BinView::of(11, 3, false);
  EXPECT_EQ(view.channels, 3);
  EXPECT_EQ(view.scalars, 2);
  ASSERT_EQ(view.feature_size(), 3 + 2 + 2);
  std::vector<double> f(7 * 3);
  view.features(kObservation, f);
  // Bin 0: hottest-but-one now (one bin hotter; bin 2 ties and shares the rank); over both
  // histograms (0.5, 1.0, 0.9) two bins are hotter.
  const std::vector<double> bin0 = {0.5, 1.0, 0.0, 1.0 / 3, 2.0 / 3, 0.25, 0.75};
  const std::vector<double> bin1 = {0.9, 0.0, 0.1, 0.0, 0.0, 0.25, 0.75};
  const std::vector<double> bin2 = {0.5, 0.6, 0.4, 1.0 / 3, 1.0 / 3, 0.25, 0.75};
  for (std::size_t k = 0; k < 7; ++k) {
    EXPECT_FLOAT_EQ(f[k], bin0[k]) << k;
    EXPECT_FLOAT_EQ(f[7 + k], bin1[k]) << k;
    EXPECT_FLOAT_EQ(f[14 + k], bin2[k]) << k;
  }
}

TEST(BinView, FlipActionsToggleTheResidentSet) {
  const BinView want = BinView::of(11, 3, false), flip = BinView::of(11, 3, true);
  EXPECT_EQ(want.placement(kObservation, 1, 1.0), 1.0);
  // Bin 0 is resident, bin 1 is not, bin 2 mostly is.
  EXPECT_EQ(flip.placement(kObservation, 0, 0.0), 1.0);
  EXPECT_EQ(flip.placement(kObservation, 0, 1.0), 0.0);
  EXPECT_EQ(flip.placement(kObservation, 1, 0.0), 0.0);
  EXPECT_EQ(flip.placement(kObservation, 1, 1.0), 1.0);
  EXPECT_EQ(flip.placement(kObservation, 2, 0.0), 1.0);
}

TEST(BinView, ImpossibleLayoutsAndBadFilesAreClearErrors) {
  EXPECT_EQ(testing::message_of<ConfigError>([] { BinView::of(5, 3, false); }),
            "a per-bin network needs an observation of at least two channels of 3 bins; this one "
            "has 5 values");
  EXPECT_EQ(BinView::from_json(BinView::of(11, 3, true).to_json(), 11).flip, true);
  EXPECT_EQ(
      testing::message_of<ConfigError>([] {
        BinView::from_json({{"bins", 3}, {"flip", false}, {"channels", 2}, {"scalars", 5}}, 11);
      }).substr(0, 84),
      "policy file: \"per_bin\" {\"bins\":3,\"channels\":2,\"flip\":false,\"scalars\":5} does "
      "not fit");
  EXPECT_EQ(testing::message_of<ConfigError>([] {
              BinView::from_json({{"bins", 3}}, 11);
            }),
            "policy file: \"per_bin\" must be an object with an integer \"bins\" and a boolean "
            "\"flip\"");
}

}  // namespace
}  // namespace sysgym::agents
