// sysgym looptune tune: a search's report (the model's GFLOPS before and after, both nests,
// measured figures present), learned:FILE, and bad kernels named.
#include "cli/cli_fixture.hpp"

namespace sysgym::testing {
namespace {

TEST_F(Cli, LooptuneTuneReportsTheSearchAndBothNests) {
  const Result r = run("looptune tune --kernel matmul:64x96x128 --search greedy2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kernel"], "matmul:64x96x128");
  EXPECT_EQ(j["actions"], 10);
  EXPECT_GT(j["model_speedup"].get<double>(), 2.0);
  EXPECT_GT(j["before"]["measured_gflops"].get<double>(), 0.0);
  EXPECT_GT(j["after"]["measured_gflops"].get<double>(), 0.0);
  EXPECT_EQ(j["before"]["loops"].size(), 3u);
  EXPECT_NE(j["after"]["text"].get<std::string>().find("C += A * B"), std::string::npos);
  const Result text = run("looptune tune --kernel conv3x3:1x4x4x8x8 --search random --steps 5");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("conv3x3:1x4x4x8x8 with random: 5 actions"), std::string::npos)
      << text.out;
}

TEST_F(Cli, LooptuneBadKernelsAndSearchesAreNamed) {
  Result r = run("looptune tune --kernel matmul:0x4x4");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("size 0 is not 1 to 65536"), std::string::npos) << r.err;
  r = run("looptune tune --kernel matmul:8x8x8 --search greedy3");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("did you mean 'greedy"), std::string::npos) << r.err;
  r = run("looptune tune --kernel matmul:8x8x8 --search learned:" + path("missing.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sysgym::testing
