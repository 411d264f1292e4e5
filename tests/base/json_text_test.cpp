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

}  // namespace
}  // namespace sysgym
