#include "env/config_schema.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "env/config_reader.hpp"
#include "support/errors.hpp"

namespace sysgym {
namespace {

using testing::message_of;

const ConfigSchema& schema() {
  static const ConfigSchema s({
      integer_key("bins", 64, 1, 65536, "address bins"),
      number_key("rate", 1.5, 0.0, 10.0, "a rate", "GB/s"),
      choice_key("mode", "fast", {"fast", "exact"}, "how"),
      boolean_key("random", false, "draw starts"),
      value_key("capacity", "25%", "a size or a percentage"),
  });
  return s;
}

TEST(ConfigSchema, SetValuesAreJsonWhenTheyParseElseStrings) {
  EXPECT_EQ(schema().value_of_text("bins", "16", "--set"), 16);
  EXPECT_EQ(schema().value_of_text("rate", "2.5", "--set"), 2.5);
  EXPECT_EQ(schema().value_of_text("random", "true", "--set"), true);
  EXPECT_EQ(schema().value_of_text("capacity", "10%", "--set"), "10%");
  EXPECT_EQ(schema().value_of_text("capacity", "[\"5%\", \"10%\"]", "--set"),
            nlohmann::json::parse("[\"5%\", \"10%\"]"));
  EXPECT_EQ(schema().value_of_text("mode", "\"exact\"", "--set"), "exact");
  EXPECT_EQ(message_of<UnknownNameError>([] { schema().value_of_text("bnis", "3", "--set x"); }),
            "--set x: unknown key 'bnis' (did you mean 'bins'?); valid: bins, rate, mode, random, "
            "capacity");
  EXPECT_EQ(message_of<ConfigError>([] {
              schema().value_of_text("capacity", std::string(100, '[') + std::string(100, ']'),
                                     "--set x");
            }),
            "--set x: capacity: JSON nested deeper than 64 levels");
}

TEST(ConfigSchema, TheReaderTakesDefaultsAndRangesFromTheSchema) {
  ConfigReader reader({{"bins", 8}}, "test config");
  EXPECT_EQ(reader.integer(schema().at("bins")), 8);
  EXPECT_EQ(reader.number(schema().at("rate")), 1.5);
  EXPECT_EQ(reader.choice(schema().at("mode")), "fast");
  EXPECT_FALSE(reader.boolean(schema().at("random")));
  ConfigReader bad({{"bins", 0}, {"mode", "exakt"}}, "test config");
  EXPECT_EQ(message_of<ConfigError>([&] { bad.integer(schema().at("bins")); }),
            "test config: 'bins' must be an integer in [1, 65536], got 0");
  EXPECT_EQ(message_of<ConfigError>([&] { bad.choice(schema().at("mode")); }),
            "test config: 'mode' must be one of fast, exact, got 'exakt' (did you mean 'exact'?)");
}

TEST(ConfigSchema, DescribesEveryKeyForTablesAndForms) {
  const nlohmann::json j = schema().to_json();
  ASSERT_EQ(j.size(), 5u);
  EXPECT_EQ(j[0]["name"], "bins");
  EXPECT_EQ(j[0]["max"], 65536);
  EXPECT_EQ(j[2]["choices"], nlohmann::json::array({"fast", "exact"}));
  EXPECT_NE(schema().markdown().find("| `rate` | a number in [0, 10] | `1.5` | a rate (GB/s) |"),
            std::string::npos)
      << schema().markdown();
  EXPECT_EQ(message_of<ApiMisuseError>([] {
              ConfigSchema({boolean_key("a", true, "x"), boolean_key("a", false, "y")});
            }),
            "config key 'a' is declared twice");
}

}  // namespace
}  // namespace sysgym
