#include "base/units.hpp"

#include <gtest/gtest.h>

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

TEST(Units, FormatsBytesForHumans) {
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(3ull << 19), "1.5 MiB");
}

}  // namespace
}  // namespace sysgym
