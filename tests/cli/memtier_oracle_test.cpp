// The bounds of memtier's oracles on every shipped trace pair, whole, at three capacities.
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"

namespace sysgym::testing {
namespace {

// The dynamic oracle is the optimum with migration cost: no policy that `compare` runs, oracle
// or not, has a lower total time, the static oracle included (it is one schedule among all).
// The window oracle's memory time (migration excluded) bounds every policy's memory time.
// Under AddressSanitizer the sweep checks memory safety, not the bound again: the release run
// covers every trace at three capacities; the sanitized one takes the seven smaller traces at one
// capacity (the whole sweep was 206 s of the sanitized stage).
#ifdef SYSGYM_ASAN
const std::vector<std::string> kOracleTraces = {
    "gcc-cc1", "graphviz-sccmap", "hpcc-stream", "kyotocabinet", "lammps", "sqlite", "xz"};
const std::vector<std::string> kOracleCapacities = {"10%"};
#else
const std::vector<std::string> kOracleTraces = {"gcc-cc1",
                                                "glpk",
                                                "graphviz-sccmap",
                                                "hpcc-randomaccess",
                                                "hpcc-stream",
                                                "kyotocabinet",
                                                "lammps",
                                                "minisat",
                                                "phased",
                                                "sqlite",
                                                "xz"};
const std::vector<std::string> kOracleCapacities = {"5%", "10%", "25%"};
#endif

TEST_F(Cli, DynamicOracleBoundsEveryPolicyOnEveryShippedTrace) {
  for (const std::string& trace : kOracleTraces) {
    for (const std::string& capacity : kOracleCapacities) {
      const std::string what = trace + " at " + capacity;
      const Result r = run("compare memtier trace=" + trace + " hbm_capacity=" + capacity +
                           " episode_length=0 --json");
      ASSERT_EQ(r.code, 0) << what << ": " << r.err;
      double dynamic = 0, window = 0;
      for (const nlohmann::json& row : nlohmann::json::parse(r.out)) {
        if (row.at("policy") == "dynamic-oracle") dynamic = row.at("total_ms");
        if (row.at("policy") == "window-oracle") window = row.at("estimated_ms");
      }
      ASSERT_GT(dynamic, 0) << what;
      for (const nlohmann::json& row : nlohmann::json::parse(r.out)) {
        EXPECT_LE(dynamic, row.at("total_ms").get<double>() * (1 + 1e-9))
            << what << ": " << row.at("policy");
        EXPECT_LE(window, row.at("estimated_ms").get<double>() * (1 + 1e-12))
            << what << ": " << row.at("policy");
      }
    }
  }
}

}  // namespace
}  // namespace sysgym::testing
