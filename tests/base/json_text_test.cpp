#include "base/json_text.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "support/errors.hpp"

namespace sysgym {
namespace {

using testing::message_of;

TEST(JsonText, ParsesWhatSysgymWrites) {
  const nlohmann::json j = parse_json_text(R"({"a": [1, {"b": [[2.5]]}], "c": null})", "config");
  EXPECT_EQ(j["a"][1]["b"][0][0], 2.5);
}

TEST(JsonText, NestingBeyondTheLimitFailsAtOnceWithAMessage) {
  // A million levels would overflow the stack of any recursive walk of the value.
  const std::string deep = std::string(1'000'000, '[') + std::string(1'000'000, ']');
  EXPECT_EQ(message_of<ConfigError>([&] { parse_json_text(deep, "--config"); }),
            "--config: JSON nested deeper than 64 levels");
  const std::string ok = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_NO_THROW(parse_json_text(ok, "--config"));
}

TEST(JsonText, InvalidTextNamesWhatItWas) {
  const std::string message =
      message_of<ConfigError>([] { parse_json_text("{\"a\": ", "policy.json"); });
  EXPECT_EQ(message.rfind("policy.json: not valid JSON (", 0), 0u) << message;
}

// A float where an integer belongs must be an error, never a cast: casting 1.8e23 to a size is
// undefined behaviour (found by the binary_trace fuzzer in a block count).
TEST(JsonText, IntegersOfOutsideJsonAreCheckedNotCast) {
  EXPECT_EQ(json_integer<std::size_t>(nlohmann::json(20)), 20u);
  EXPECT_EQ(json_integer<std::int64_t>(nlohmann::json(-3)), -3);
  EXPECT_EQ(message_of<nlohmann::json::type_error>(
                [] { json_integer<std::size_t>(nlohmann::json(1.8e23)); }),
            "[json.exception.type_error.302] expected an integer, got 1.8e+23");
  EXPECT_EQ(message_of<nlohmann::json::out_of_range>(
                [] { json_integer<std::uint32_t>(nlohmann::json(-1)); }),
            "[json.exception.out_of_range.406] -1 is out of range");
  EXPECT_EQ(message_of<nlohmann::json::out_of_range>(
                [] { json_integer<int>(nlohmann::json(4294967297ULL)); }),
            "[json.exception.out_of_range.406] 4294967297 is out of range");
  // The prefix naming nlohmann's internals is dropped from messages users read.
  try {
    json_integer<int>(nlohmann::json("7"));
  } catch (const nlohmann::json::exception& e) {
    EXPECT_EQ(json_problem(e), "expected an integer, got \"7\"");
  }
}

}  // namespace
}  // namespace sysgym
