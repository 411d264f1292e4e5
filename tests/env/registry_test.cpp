#include "env/registry.hpp"

#include <gtest/gtest.h>

#include "support/errors.hpp"

#include "base/error.hpp"
#include "env/line_walk_env.hpp"

namespace sysgym {
namespace {

TEST(Registry, MakesByFullIdAndBareNameMeansHighestVersion) {
  const Registry registry = testing::line_walk_registry();
  EXPECT_EQ(registry.make("linewalk-v0")->id(), "linewalk-v0");
  EXPECT_EQ(registry.make("linewalk")->id(), "linewalk-v1");
  EXPECT_EQ(registry.ids(), (std::vector<std::string>{"linewalk-v0", "linewalk-v1"}));
}

TEST(Registry, PassesTheConfigToTheFactory) {
  const Registry registry = testing::line_walk_registry();
  EXPECT_EQ(registry.make("linewalk-v0", {{"length", 9}})->config()["length"], 9);
}

TEST(Registry, UnknownEnvSuggestsTheClosestId) {
  const Registry registry = testing::line_walk_registry();
  EXPECT_EQ(
      testing::message_of<UnknownNameError>([&] { registry.make("linewalk-v3"); }),
      "unknown env 'linewalk-v3' (did you mean 'linewalk-v0'?); valid: linewalk-v0, linewalk-v1");
}

TEST(Registry, ConfigErrorsPassThroughUnchanged) {
  const Registry registry = testing::line_walk_registry();
  EXPECT_EQ(testing::message_of<ConfigError>([&] {
              registry.make("linewalk-v0", {{"lenght", 4}});
            }),
            "linewalk-v0 config: unknown key 'lenght' (did you mean 'length'?); valid: length, "
            "max_steps, slip_percent");
}

TEST(Registry, RejectsUnversionedIdsAndDuplicates) {
  Registry registry = testing::line_walk_registry();
  auto factory = [](const nlohmann::json& c) { return std::make_unique<testing::LineWalkEnv>(c); };
  EXPECT_THROW(registry.add({"linewalk", "", factory, nlohmann::json::object(), ConfigSchema()}),
               ApiMisuseError);
  EXPECT_THROW(registry.add({"linewalk-vX", "", factory, nlohmann::json::object(), ConfigSchema()}),
               ApiMisuseError);
  EXPECT_THROW(registry.add({"linewalk-v0", "", factory, nlohmann::json::object(), ConfigSchema()}),
               ApiMisuseError);
}

TEST(Registry, ParsesVersionedIds) {
  std::string name;
  int version = -1;
  EXPECT_TRUE(parse_env_id("memtier-v12", name, version));
  EXPECT_EQ(name, "memtier");
  EXPECT_EQ(version, 12);
  EXPECT_FALSE(parse_env_id("memtier", name, version));
  EXPECT_FALSE(parse_env_id("-v1", name, version));
}

}  // namespace
}  // namespace sysgym
