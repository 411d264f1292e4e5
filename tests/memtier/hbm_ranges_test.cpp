#include "memtier/hbm_ranges.hpp"

#include <gtest/gtest.h>

#include "support/errors.hpp"

#include "base/error.hpp"

namespace sysgym::memtier {
namespace {

TEST(HbmRanges, MergesOverlappingAndTouchingRanges) {
  HbmRanges r;
  r.add({0x3000, 0x4000});
  r.add({0x1000, 0x2000});
  r.add({0x2000, 0x2800});
  r.add({0x3800, 0x5000});
  EXPECT_EQ(r.ranges(), (std::vector<AddressRange>{{0x1000, 0x2800}, {0x3000, 0x5000}}));
  EXPECT_EQ(r.total_bytes(), 0x1800u + 0x2000u);
  EXPECT_EQ(r.to_string(), "0x1000:0x2800,0x3000:0x5000");
}

TEST(HbmRanges, ContainsIsHalfOpen) {
  const HbmRanges r({{0x1000, 0x2000}});
  EXPECT_TRUE(r.contains(0x1000));
  EXPECT_TRUE(r.contains(0x1fff));
  EXPECT_FALSE(r.contains(0x2000));
  EXPECT_FALSE(r.contains(0xfff));
}

TEST(HbmRanges, ParsesHexWithOrWithoutPrefix) {
  EXPECT_EQ(parse_address_range("0x7f00:0x7f80"), (AddressRange{0x7f00, 0x7f80}));
  EXPECT_EQ(parse_address_range("7f00:7f80"), (AddressRange{0x7f00, 0x7f80}));
  EXPECT_EQ(parse_address_ranges("1:2, 0x10:0x20").size(), 2u);
}

TEST(HbmRanges, LoNotBelowHiIsAnError) {
  EXPECT_EQ(sysgym::testing::message_of<ConfigError>([&] { parse_address_range("0x2000:0x1000"); }),
            "HBM range '0x2000:0x1000': LO must be below HI (ranges are half-open [LO, HI))");
  EXPECT_THROW(parse_address_range("0x1000:0x1000"), ConfigError);
  EXPECT_EQ(sysgym::testing::message_of<ConfigError>([&] { parse_address_range("0x1000-0x2000"); }),
            "HBM range '0x1000-0x2000' is not of the form LO:HI in hexadecimal (e.g. "
            "0x7f0000000000:0x7f0000400000)");
}

}  // namespace
}  // namespace sysgym::memtier
