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
    {"policies",
     {{{"file", "p.json"}, {"label", "P"}, {"seeds", {0, 1, 2}}}, {{"file", "q.json"}}}}};

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

TEST(SplitProtocol, AHindsightGridRunsEveryCombinationOfEachPolicysValues) {
  nlohmann::json m = kManifest;
  m["hindsight"] = {{"label", "tuned"},
                    {"from", "first"},
                    {"grid",
                     {{"b", {{"x", {1, 2}}, {"y", {"p", "q"}}}},
                      {"a", {{"z", {3}}}},
                      {"c", nlohmann::json::object()}}}};  // a policy without parameters
  const SplitProtocol p = split_protocol(m, "held-out", "m.json");
  EXPECT_EQ(p.hindsight.label, "tuned");
  EXPECT_EQ(p.hindsight_from, "first");
  using Candidates = std::vector<std::pair<std::string, nlohmann::json>>;
  EXPECT_EQ(p.hindsight.candidates, (Candidates{{"a", {{"z", 3}}},
                                                {"b", {{"x", 1}, {"y", "p"}}},
                                                {"b", {{"x", 1}, {"y", "q"}}},
                                                {"b", {{"x", 2}, {"y", "p"}}},
                                                {"b", {{"x", 2}, {"y", "q"}}},
                                                {"c", nlohmann::json::object()}}));
  EXPECT_TRUE(split_protocol(kManifest, "held-out", "m.json").hindsight.label.empty());
}

TEST(SplitProtocol, AMalformedHindsightGridIsNamed) {
  const auto message = [](const nlohmann::json& hindsight) {
    nlohmann::json m = kManifest;
    m["hindsight"] = hindsight;
    try {
      split_protocol(m, "held-out", "m.json");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({{"label", "t"}, {"grid", {{"a", {{"x", {1}}}}}}}),
            "m.json: hindsight: no \"from\" in its manifest");
  EXPECT_EQ(
      message({{"label", "t"}, {"from", "f"}, {"grid", {{"a", {{"x", nlohmann::json::array()}}}}}}),
      "m.json: hindsight.grid.a.x must be a non-empty list");
  EXPECT_EQ(message({{"label", "t"}, {"from", "f"}, {"grid", {{"a", 1}}}}),
            "m.json: hindsight.grid.a must map parameters to lists");
  EXPECT_EQ(message({{"label", "t"}, {"from", "f"}, {"grid", nlohmann::json::object()}}),
            "m.json: hindsight.grid must map policies to {parameter: [values]}");
}

}  // namespace
}  // namespace sysgym::agents
