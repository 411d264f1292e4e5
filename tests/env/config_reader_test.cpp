#include "env/config_reader.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace sysgym {
namespace {

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ConfigReader, DefaultsFillMissingKeysAndAreResolved) {
  ConfigReader reader(nlohmann::json::object(), "demo config");
  EXPECT_EQ(reader.integer("bins", 64, 1, 4096), 64);
  EXPECT_EQ(reader.choice("mode", "bins", {"bins", "discrete"}), "bins");
  reader.finish();
  EXPECT_EQ(reader.resolved(), (nlohmann::json{{"bins", 64}, {"mode", "bins"}}));
}

TEST(ConfigReader, UnknownKeyIsNamedWithTheClosestValidKey) {
  ConfigReader reader({{"hbm_capcity", 10}}, "memtier-v0 config");
  reader.integer("hbm_capacity", 1, 1, 100);
  reader.integer("bins", 64, 1, 4096);
  EXPECT_EQ(error_of([&] { reader.finish(); }),
            "memtier-v0 config: unknown key 'hbm_capcity' (did you mean 'hbm_capacity'?); valid: "
            "bins, hbm_capacity");
}

TEST(ConfigReader, OutOfRangeAndWrongTypesNameTheKey) {
  EXPECT_EQ(error_of([] {
              ConfigReader r({{"bins", 0}}, "c");
              r.integer("bins", 64, 1, 4096);
            }),
            "c: 'bins' must be an integer in [1, 4096], got 0");
  EXPECT_EQ(error_of([] {
              ConfigReader r({{"bins", "many"}}, "c");
              r.integer("bins", 64, 1, 4096);
            }),
            "c: 'bins' must be an integer in [1, 4096], got \"many\"");
  EXPECT_EQ(error_of([] {
              ConfigReader r({{"scale", -1.0}}, "c");
              r.number("scale", 1.0, 0.0, 10.0);
            }),
            "c: 'scale' must be a number in [0.0, 10.0], got -1.0");
  EXPECT_EQ(error_of([] {
              ConfigReader r({{"mode", "bin"}}, "c");
              r.choice("mode", "bins", {"bins", "discrete"});
            }),
            "c: 'mode' must be one of bins, discrete, got 'bin' (did you mean 'bins'?)");
  EXPECT_EQ(error_of([] {
              ConfigReader r({{"flag", 1}}, "c");
              r.boolean("flag", false);
            }),
            "c: 'flag' must be true or false, got 1");
}

TEST(ConfigReader, IntegralFloatsAreAcceptedAsIntegers) {
  ConfigReader reader({{"bins", 128.0}}, "c");
  EXPECT_EQ(reader.integer("bins", 64, 1, 4096), 128);
}

TEST(ConfigReader, NonObjectConfigIsRejected) {
  EXPECT_EQ(error_of([] { ConfigReader r(nlohmann::json::array(), "c"); }),
            "c: expected a JSON object, got array");
  EXPECT_NO_THROW(ConfigReader(nullptr, "c"));
}

}  // namespace
}  // namespace sysgym
