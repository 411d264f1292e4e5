// sysgym profile around other commands: a run's operations counted step by step, the report's
// sum check, a timeline Perfetto opens, a failing command's error and status passed through,
// --partial, an unwritable trace path and profile nested in itself.
#include "cli/cli_fixture.hpp"

namespace sysgym::testing {
namespace {

const nlohmann::json& op_row(const nlohmann::json& report, const std::string& op) {
  for (const nlohmann::json& r : report["ops"]) {
    if (r["op"] == op) return r;
  }
  throw std::runtime_error("no operation " + op + " in " + report.dump());
}

TEST_F(Cli, ProfileCountsEveryStepOfARunAndWritesItsTimeline) {
  const Result r = run("profile --json --chrome-trace " + path("trace.json") +
                       " -- run inline-v0 program=kernels --policy size-threshold --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  EXPECT_EQ(op_row(report, "env.step")["count"], 39);  // one per call site of kernels
  EXPECT_EQ(op_row(report, "policy.act")["count"], 39);
  EXPECT_EQ(op_row(report, "env.step")["category"], "simulation");
  EXPECT_EQ(report["partial"], false);
  EXPECT_GT(report["unprofiled_ms"].get<double>(), 0);
  const auto& check = report["sum_check"];
  EXPECT_NEAR(check["self_plus_unattributed_ms"].get<double>(),
              check["corrected_wall_ms"].get<double>(), 1e-6);
  // The command's own output went to stderr, the report alone to stdout.
  EXPECT_NE(r.err.find("\"score\""), std::string::npos);
  const nlohmann::json trace = read_json(path("trace.json"));
  std::size_t steps = 0;
  for (const nlohmann::json& e : trace["traceEvents"]) {
    EXPECT_EQ(e["ph"], "X");
    EXPECT_GE(e["dur"].get<double>(), 0);
    steps += e["name"] == "env.step" ? 1 : 0;
  }
  EXPECT_EQ(steps, 39u);
}

TEST_F(Cli, ProfileTablesATrainingRunByCategory) {
  const Result r = run("profile --no-baseline -- train inline-v0 --agent dqn --steps 2000 -o " +
                       path("dqn.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* expected : {"learner.update", "replay.sample", "policy.act", "env.step",
                               "by category (self ms):", "= the corrected wall time"})
    EXPECT_NE(r.out.find(expected), std::string::npos) << expected << "\n" << r.out;
  EXPECT_TRUE(fs::exists(path("dqn.json")));
}

TEST_F(Cli, ProfilePassesAFailingCommandsErrorThrough) {
  Result r = run("profile -- run inline-v0 program=nowhere --policy never");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("sysgym: UnknownNameError: inline-v0 config: unknown program 'nowhere'"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
  r = run("profile --partial --json -- run inline-v0 program=nowhere --policy never");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(nlohmann::json::parse(r.out)["partial"], true);
  r = run("profile -- run inline-v0 --polcy never");  // a usage error keeps its status
  EXPECT_EQ(r.code, 2);
  // Profile runs sysgym's own commands: another word is named, with the commands it could be.
  r = run("profile -- /bin/ls");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err.rfind("unknown command '/bin/ls' (the commands: run, compare, list,", 0), 0u)
      << r.err;
  r = run("profile --chrome-trace " + path("no/such/folder/t.json") + " -- list");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--chrome-trace: cannot write"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;
  r = run("profile --no-baseline -- profile -- list");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("profile cannot be nested in itself"), std::string::npos) << r.err;
  r = run("profile");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("name the command to profile after --"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace sysgym::testing
