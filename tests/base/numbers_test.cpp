#include "base/numbers.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "base/error.hpp"
#include "support/errors.hpp"

namespace sysgym {
namespace {

using testing::message_of;

TEST(Numbers, SeedsAreAnyUnsigned64BitIntegerWrittenInDigits) {
  EXPECT_EQ(parse_integer("0", "--seed", kSeedRange), 0u);
  EXPECT_EQ(parse_integer("18446744073709551615", "--seed", kSeedRange), UINT64_MAX);
}

// Natively CLI11 made -1 and 2^64 into 2^64-1; in the npm package they became 0.
TEST(Numbers, NegativeHugeFractionalAndNonNumericSeedsAreRefusedNotCoerced) {
  for (const char* bad :
       {"-1", "18446744073709551616", "1.5", "1e3", "abc", "", " 7", "+7", "0x10", "NaN"}) {
    EXPECT_EQ(
        message_of<ConfigError>([&] { parse_integer(bad, "--seed", kSeedRange); }),
        "--seed: '" + std::string(bad) + "' is not a whole number from 0 to 18446744073709551615")
        << bad;
  }
}

TEST(Numbers, CountsOutsideTheirRangeNameTheRange) {
  EXPECT_EQ(message_of<ConfigError>([] {
              parse_integer("1", "--samples", {2, 50});
            }),
            "--samples: '1' is not a whole number from 2 to 50");
  EXPECT_EQ(parse_integer("50", "--samples", {2, 50}), 50u);
}

TEST(Numbers, RealNumbersFollowJsonSyntaxAndTheRange) {
  EXPECT_EQ(parse_number("1.4e6", "--cpu-cycles-per-ms", {1, 1e12}), 1.4e6);
  EXPECT_EQ(parse_number("-0.5", "x", {-1, 1}), -0.5);
  for (const char* bad : {"1e-300", "nan", "inf", "1e400", "0x10", ".5", "5.", "", "1,5"}) {
    EXPECT_EQ(message_of<ConfigError>([&] {
                parse_number(bad, "--cpu-cycles-per-ms", {1, 1e12});
              }),
              "--cpu-cycles-per-ms: '" + std::string(bad) + "' is not a number from 1 to 1e+12")
        << bad;
  }
}

TEST(Numbers, CheckedValuesRefuseNaN) {
  EXPECT_THROW(check_number(std::nan(""), "window_len", {1e-9, 1e18}), ConfigError);
  EXPECT_NO_THROW(check_number(1.0, "window_len", {1e-9, 1e18}));
}

TEST(Numbers, HugeTextIsQuotedShort) {
  const std::string message = message_of<ConfigError>([] {
    parse_integer(std::string(1'000'000, '9'), "--steps", {1, 10});
  });
  EXPECT_LT(message.size(), 120u) << message;
}

}  // namespace
}  // namespace sysgym
