// sysgym tensorplace zoo|graph: the zoo's table, graph files written and read back, and bad
// graph files named.
#include <fstream>

#include "cli/cli_fixture.hpp"

namespace sysgym::testing {
namespace {

TEST_F(Cli, TensorplaceZooListsEveryModelWithItsSize) {
  const Result r = run("tensorplace zoo --batch 8");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* model :
       {"vgg19", "vgg416", "resnet50", "resnet200", "inception_v4", "densenet264"})
    EXPECT_NE(r.out.find(std::string("\n") + model + " "), std::string::npos) << model;
  const Result j = run("tensorplace zoo --batch 8 --json");
  const nlohmann::json rows = nlohmann::json::parse(j.out);
  EXPECT_EQ(rows.size(), 12u);
  EXPECT_EQ(rows[0]["batch"], 8);
}

TEST_F(Cli, TensorplaceGraphFilesRoundTrip) {
  const std::string file = path("vgg19.json");
  const Result w = run("tensorplace graph --model vgg19 --batch 16 -o " + file + " --json");
  ASSERT_EQ(w.code, 0) << w.err;
  const Result r = run("tensorplace graph --input " + file + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, w.out);
  EXPECT_EQ(nlohmann::json::parse(r.out)["peak_live_bytes"],
            nlohmann::json::parse(w.out)["peak_live_bytes"]);
  const Result text = run("tensorplace graph --model resnet50 --batch 4");
  EXPECT_NE(text.out.find("resnet50 at batch 4: 564 kernels"), std::string::npos) << text.out;
}

TEST_F(Cli, TensorplaceBadGraphsAreNamedAndWriteNothing) {
  const std::string bad = path("bad.json");
  std::ofstream(bad) << R"({"format": "sysgym-tensorplace-graph", "version": 1,
    "tensors": [{"name": "x", "bytes": 4096}], "kernels": [{"name": "k", "inputs": ["x"], "flops": 1}]})";
  Result r = run("tensorplace graph --input " + bad + " -o " + path("out.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(
      r.err,
      "sysgym: ConfigError: " + bad +
          ": kernel 'k' (#0) reads intermediate 'x' before any "
          "kernel produces it: kernels must be listed in execution order, and the graph may not "
          "have a cycle\n");
  EXPECT_FALSE(fs::exists(path("out.json")));
  r = run("tensorplace graph --model resnet51");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("did you mean 'resnet50'"), std::string::npos) << r.err;
  r = run("tensorplace graph --model vgg19 --input " + bad);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--model"), std::string::npos) << r.err;
  EXPECT_EQ(run("tensorplace graph --model vgg19 --batch 0").code, 1);
}

}  // namespace
}  // namespace sysgym::testing
