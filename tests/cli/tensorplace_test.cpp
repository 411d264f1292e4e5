// sysgym tensorplace zoo|graph: the zoo's table, graph files written and read back, bad graph
// files named; the shipped learned policy gives its recorded held-out figures.
#include <algorithm>
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

// The command data/policies/tensorplace/reproduce.mjs runs, on the held-out models: the shipped
// policy's iterations are the recorded ones, and it is never behind the ILP's bound.
TEST_F(Cli, TensorplaceShippedPolicyReproducesItsHeldOutResults) {
  const std::string dir = std::string(SYSGYM_SHIPPED_DATA) + "/policies/tensorplace";
  const nlohmann::json manifest = read_json(dir + "/manifest.json");
  const nlohmann::json results = read_json(dir + "/results.json");
  std::string models, fast, policies;
  for (const auto& m : manifest["split"]["held_out"])
    models += (models.empty() ? "" : ",") + m.get<std::string>();
  for (const auto& f : manifest["vary"]["fast_memory"])
    fast += (fast.empty() ? "" : ",") + f.get<std::string>();
  for (const auto& p : manifest["policies"])
    policies += " --policy " + dir + "/" + p["file"].get<std::string>();
  const Result r = run("eval tensorplace-v0" + policies + " batch=" + manifest["settings"]["batch"].dump() +
                       " --vary model=" + models + " --vary fast_memory=" + fast +
                       " --baselines all-slow --json");
  ASSERT_EQ(r.code, 0) << r.err;
  std::size_t compared = 0;
  for (const auto& table : nlohmann::json::parse(r.out)) {
    for (const auto& recorded : results) {
      if (recorded["config"]["model"] != table["config"]["model"] ||
          recorded["config"]["fast_memory"] != table["config"]["fast_memory"]) {
        continue;
      }
      double ilp = 0;
      for (const auto& old : recorded["rows"])
        if (old["policy"].get<std::string>().rfind("ilp-", 0) == 0) ilp = old["iteration_ms"];
      for (const auto& row : table["rows"]) {
        const std::string policy = row["policy"];
        if (policy.rfind("learned:", 0) != 0) continue;
        const std::string file = fs::path(policy.substr(8)).filename();
        for (const auto& old : recorded["rows"]) {
          if (fs::path(old["policy"].get<std::string>()).filename() != file) continue;
          EXPECT_NEAR(row["iteration_ms"].get<double>(), old["iteration_ms"].get<double>(), 1e-9)
              << file << " on " << table["config"].dump();
          // The ILP stops within 1 % of its bound: nothing in the env's moves beats that.
          EXPECT_GE(row["iteration_ms"].get<double>(), 0.99 * ilp) << table["config"].dump();
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, manifest["policies"].size() * manifest["split"]["held_out"].size() *
                          manifest["vary"]["fast_memory"].size());
}

}  // namespace
}  // namespace sysgym::testing

namespace sysgym::testing {
namespace {

// --time-limit covers the whole command (it covered each solve only: 200,000 kernels at 5 s took
// 97 s): with no time left after the heuristics, no model is built and the better heuristic's
// plan is kept, reported and written as such.
TEST_F(Cli, TensorplaceIlpTimeLimitCoversTheCommandAndKeepsTheBestPlanKnown) {
  const std::string plan = path("plan.json");
  const Result r =
      run("tensorplace ilp --model vgg416 --batch 4 --variant async --time-limit 0.01 "
          "--write-plan " +
          plan + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["status"], "time limit");
  EXPECT_EQ(j["steps"].size(), 3u);
  ASSERT_TRUE(j.contains("plan_from")) << r.out;
  EXPECT_DOUBLE_EQ(j["iteration_ms"].get<double>(),
                   std::min(j["greedy_ms"].get<double>(), j["first_touch_ms"].get<double>()));
  const Result replay =
      run("run tensorplace model=vgg416 batch=4 --policy plan --policy-config " + plan + " --json");
  EXPECT_EQ(replay.code, 0) << replay.err;
}

// sweep's --time-limit covers the whole sweep too (it was per solve, now --solve-time-limit):
// once it is spent every ILP cell keeps the plan that started it, marked as stopped.
TEST_F(Cli, TensorplaceSweepTimeLimitCoversTheCommandAndEveryCellKeepsAPlan) {
  const Result r =
      run("tensorplace sweep --model vgg416 --batch 4 --ratios 1:1,4:1 --optimizers "
          "greedy,static,sync --time-limit 0.01 --solve-time-limit 600 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["rows"].size(), 2u);
  for (const auto& row : j["rows"]) {
    const double greedy = row["optimizers"]["greedy"]["iteration_ms"];
    for (const char* variant : {"static", "sync"}) {
      const nlohmann::json& cell = row["optimizers"][variant];
      EXPECT_EQ(cell["status"], "time limit") << row.dump();
      EXPECT_TRUE(cell.contains("plan_kept")) << row.dump();
      EXPECT_DOUBLE_EQ(cell["iteration_ms"].get<double>(), greedy) << row.dump();
    }
  }
  const Result text =
      run("tensorplace sweep --model vgg416 --batch 4 --ratios 1:1 --optimizers greedy,static "
          "--time-limit 0.01");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("~"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace sysgym::testing
