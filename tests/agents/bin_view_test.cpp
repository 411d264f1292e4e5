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

// As memtier declares its bins: channel 1 is the state (residency), the others activity.
const EntityLayout kBins{"bin", 3, 3, 1, {"promote", "demote"}};

TEST(BinView, EachBinSeesItsChannelsItsHotnessRanksAndTheScalars) {
  const BinView view = BinView::of(kBins, 11, false);
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
  const BinView want = BinView::of(kBins, 11, false), flip = BinView::of(kBins, 11, true);
  EXPECT_EQ(want.placement(kObservation, 1, 1.0), 1.0);
  // Bin 0 is resident, bin 1 is not, bin 2 mostly is.
  EXPECT_EQ(flip.placement(kObservation, 0, 0.0), 1.0);
  EXPECT_EQ(flip.placement(kObservation, 0, 1.0), 0.0);
  EXPECT_EQ(flip.placement(kObservation, 1, 0.0), 0.0);
  EXPECT_EQ(flip.placement(kObservation, 1, 1.0), 1.0);
  EXPECT_EQ(flip.placement(kObservation, 2, 0.0), 1.0);
}

TEST(BinView, TheEnvDeclaresWhichChannelIsTheState) {
  // The same observation with the state declared in channel 2: bin 1's activity (0.9 + 0.0)
  // now ranks below bins 0 (0.5 + 1.0) and 2 (0.5 + 0.6), and flips read channel 2.
  EntityLayout last = kBins;
  last.state_channel = 2;
  const BinView view = BinView::of(last, 11, true);
  std::vector<double> f(7 * 3);
  view.features(kObservation, f);
  EXPECT_DOUBLE_EQ(f[7 + 4], 2.0 / 3);
  EXPECT_EQ(view.placement(kObservation, 2, 0.0), 0.0);  // 0.4 in channel 2: not resident
}

TEST(BinView, ImpossibleLayoutsAndBadFilesAreClearErrors) {
  EXPECT_EQ(testing::message_of<ConfigError>([] { BinView::of(kBins, 5, false); }),
            "a per-bin network needs an observation of at least two channels of 3 bins; this one "
            "has 3 channels in 5 values");
  EXPECT_EQ(testing::message_of<ConfigError>([] { BinView::of(std::nullopt, 11, false); }),
            "a per-bin network needs an env that declares its entities (Env::entity_layout); this "
            "one declares none");
  EntityLayout stateless = kBins;
  stateless.state_channel = -1;
  EXPECT_EQ(
      testing::message_of<ConfigError>([&] { BinView::of(stateless, 11, true); }),
      "flip actions need an env whose bins have a state channel to toggle; this one has none");
  // Policy files keep the shape; the state channel comes from the env they drive.
  BinView read = BinView::from_json(BinView::of(kBins, 11, true).to_json(), 11);
  EXPECT_EQ(read.flip, true);
  EXPECT_EQ(read.state_channel, -1);
  read.bind(kBins);
  EXPECT_EQ(read.state_channel, 1);
  EntityLayout more = kBins;
  more.count = 4;
  EXPECT_EQ(
      testing::message_of<ConfigError>([&] { read.bind(more); }),
      "the policy reads 3 bins of 3 channels; the env has 4 of 3 (train it with the same bins "
      "and history)");
  EXPECT_EQ(
      testing::message_of<ConfigError>([] {
        BinView::from_json({{"bins", 3}, {"flip", false}, {"channels", 2}, {"scalars", 4}}, 11);
      }),
      "policy file: \"per_bin\" {\"bins\":3,\"channels\":2,\"flip\":false,\"scalars\":4} does "
      "not fit an observation of 11 values");
  EXPECT_EQ(testing::message_of<ConfigError>([] {
              BinView::from_json({{"bins", 3}}, 11);
            }),
            "policy file: \"per_bin\" must be an object with integers \"bins\", \"channels\", "
            "\"scalars\" and a boolean \"flip\"");
}

}  // namespace
}  // namespace sysgym::agents
