// A family manifest's split, as `sysgym eval ENV --split` reads it.
#include "agents/held_out.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace sysgym::agents {
namespace {

const nlohmann::json kManifest = {
    {"split", {{"key", "trace"}, {"train", {"a", "b"}}, {"held_out", {"c"}}}},
    {"settings", {{"bins", 16}}},
    {"vary", {{"hbm_capacity", {"5%", "10%"}}}},
    {"policies", {{{"file", "p.json"}, {"label", "P"}, {"seeds", {0, 1, 2}}}, {{"file", "q.json"}}}}};

TEST(SplitProtocol, ReadsTheSplitItsGridAndEveryTrainingSeedsFile) {
  const SplitProtocol held_out = split_protocol(kManifest, "held-out", "m.json");
  EXPECT_EQ(held_out.key, "trace");
  EXPECT_EQ(held_out.members, std::vector<std::string>{"c"});
  EXPECT_EQ(held_out.settings, (nlohmann::json{{"bins", 16}}));
  EXPECT_EQ(held_out.vary, std::vector<std::string>{R"(hbm_capacity=["5%","10%"])"});
  ASSERT_EQ(held_out.policies.size(), 2u);
  EXPECT_EQ(held_out.policies[0].label, "P");
  EXPECT_EQ(held_out.policies[0].files,
            (std::vector<std::string>{"p.json", "p.seed1.json", "p.seed2.json"}));
  EXPECT_EQ(held_out.policies[1].label, "q.json");
  EXPECT_EQ(split_protocol(kManifest, "train", "m.json").members,
            (std::vector<std::string>{"a", "b"}));
}

TEST(SplitProtocol, AMalformedManifestIsNamedWithWhatIsWrong) {
  const auto message = [](const nlohmann::json& manifest, const std::string& split) {
    try {
      split_protocol(manifest, split, "m.json");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(kManifest, "test"), "no split 'test' in m.json: train or held-out");
  nlohmann::json m = kManifest;
  m["split"].erase("key");
  EXPECT_EQ(message(m, "held-out"), "m.json: split: no \"key\" in its manifest");
  m = kManifest;
  m["split"]["held_out"] = nlohmann::json::array();
  EXPECT_EQ(message(m, "held-out"), "m.json: split.held_out must be a non-empty list of strings");
  m = kManifest;
  m["vary"]["hbm_capacity"] = "5%";
  EXPECT_EQ(message(m, "held-out"), "m.json: vary.hbm_capacity must be a non-empty list");
  m = kManifest;
  m["policies"][0]["file"] = 3;
  EXPECT_EQ(message(m, "held-out"),
            "m.json: a policy's file and label must be strings, its seeds a list");
  EXPECT_EQ(message(nlohmann::json::array(), "held-out"), "m.json: no \"split\" in its manifest");
}

}  // namespace
}  // namespace sysgym::agents
