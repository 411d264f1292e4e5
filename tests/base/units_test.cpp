#include "base/units.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "base/det_math.hpp"
#include "base/error.hpp"

namespace sysgym {
namespace {

TEST(Units, ParsesBinaryAndDecimalSizes) {
  EXPECT_EQ(parse_byte_size("4096"), 4096u);
  EXPECT_EQ(parse_byte_size("64MiB"), 64ull << 20);
  EXPECT_EQ(parse_byte_size("64 MiB"), 64ull << 20);
  EXPECT_EQ(parse_byte_size("1.5GiB"), 3ull << 29);
  EXPECT_EQ(parse_byte_size("2GB"), 2000000000ull);
  EXPECT_EQ(parse_byte_size("16k"), 16384u);
}

TEST(Units, RejectsUnknownUnitsAndFractionsOfBytes) {
  EXPECT_THROW(parse_byte_size("abc"), ConfigError);
  try {
    parse_byte_size("64MB/s");
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_STREQ(
        e.what(),
        "size '64MB/s' has unknown unit 'mb/s' (use B, KiB, MiB, GiB, TiB, or KB, MB, GB, TB)");
  }
  EXPECT_THROW(parse_byte_size("0.5"), ConfigError);
  EXPECT_THROW(parse_byte_size("1.2.3MiB"), ConfigError);
  EXPECT_THROW(parse_byte_size("99999999999TiB"), ConfigError);
  EXPECT_EQ(parse_byte_size("0.5KiB"), 512u);
}

TEST(Units, ParsesDurations) {
  EXPECT_EQ(parse_duration("10s"), 10.0);
  EXPECT_EQ(parse_duration("500ms"), 0.5);
  EXPECT_EQ(parse_duration("2min"), 120.0);
  EXPECT_EQ(parse_duration("1.5s"), 1.5);
  for (const char* bad : {"10", "0s", "-1s", "s", "10 h", "1e3s"}) {
    try {
      parse_duration(bad);
      FAIL() << bad;
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("is not a duration"), std::string::npos) << e.what();
    }
  }
}

TEST(DetMath, LogAndExpMatchLibmToRoundingError) {
  for (double x : {1e-9, 0.1, 0.5, 1.0, 2.0, 3.7, 1000.0, 1e12}) {
    EXPECT_NEAR(det_log(x), std::log(x), 1e-14 * std::max(1.0, std::abs(std::log(x)))) << x;
  }
  for (double x : {-50.0, -3.0, -0.25, 0.0, 0.7, 5.0, 60.0}) {
    EXPECT_NEAR(det_exp(x), std::exp(x), 1e-13 * std::exp(x)) << x;
  }
  EXPECT_EQ(det_exp(-800), 0.0);
}

TEST(Units, FormatsBytesForHumans) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(3ull << 19), "1.5 MiB");
}

}  // namespace
}  // namespace sysgym
