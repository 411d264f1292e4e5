#include "memtier/regions.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace sysgym::memtier {
namespace {

TEST(Regions, MergesPagesCloserThanTheIntervalDistance) {
  // 4 KiB pages; distance 2^16 = 64 KiB.
  const std::vector<std::uint64_t> pages = {0x10000, 0x11000, 0x20000, 0x100000, 0x101000};
  const auto regions = detect_regions(pages, 12, 16);
  ASSERT_EQ(regions.size(), 2u);
  EXPECT_EQ(regions[0].lo, 0x10000u);
  EXPECT_EQ(regions[0].hi, 0x21000u);
  EXPECT_EQ(regions[0].pages, 3u);
  EXPECT_EQ(regions[1].lo, 0x100000u);
  EXPECT_EQ(regions[1].hi, 0x102000u);
}

TEST(Regions, AGapOfExactlyTheDistanceSplits) {
  const std::vector<std::uint64_t> pages = {0x0, 0x1000 + 0x10000};
  EXPECT_EQ(detect_regions(pages, 12, 16).size(), 2u);
  const std::vector<std::uint64_t> closer = {0x0, 0x1000 + 0xf000};
  EXPECT_EQ(detect_regions(closer, 12, 16).size(), 1u);
}

TEST(Regions, IntervalDistanceBelowThePageSizeIsAnError) {
  EXPECT_THROW(detect_regions({}, 13, 12), ConfigError);
  EXPECT_TRUE(detect_regions({}, 13, 22).empty());
}

}  // namespace
}  // namespace sysgym::memtier
