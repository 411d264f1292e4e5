// `sysgym eval ENV --split held-out`: the one held-out protocol of every family.
#include <algorithm>
#include <cmath>
#include <map>

#include "agents/evaluation.hpp"
#include "agents/held_out.hpp"
#include "catalog.hpp"
#include "cli/cli_fixture.hpp"
#include "thread_pool.hpp"

namespace sysgym::testing {
namespace {

// Equal but for the run's date and machine, numbers to 1e-9 of their size.
void expect_same_result(const nlohmann::json& now, const nlohmann::json& recorded,
                        const std::string& where) {
  if (now.is_number() && recorded.is_number()) {
    const double a = now.get<double>(), b = recorded.get<double>();
    EXPECT_LE(std::abs(a - b), 1e-9 * std::max(1.0, std::abs(b))) << where;
    return;
  }
  ASSERT_EQ(now.type(), recorded.type()) << where;
  if (now.is_object()) {
    for (const auto& [key, value] : recorded.items()) {
      if (key == "date" || key == "machine") continue;
      ASSERT_TRUE(now.contains(key)) << where << "." << key;
      expect_same_result(now[key], value, where + "." + key);
    }
    EXPECT_EQ(now.size(), recorded.size()) << where;
  } else if (now.is_array()) {
    ASSERT_EQ(now.size(), recorded.size()) << where;
    for (std::size_t i = 0; i < now.size(); ++i)
      expect_same_result(now[i], recorded[i], where + "[" + std::to_string(i) + "]");
  } else {
    EXPECT_EQ(now, recorded) << where;
  }
}

// The results page of docs/envs/tensorplace.md is generated from this recorded run: the same
// command gives the same tables and summary.
TEST_F(Cli, TheHeldOutProtocolReproducesItsRecordedRun) {
  const std::string dir = std::string(SYSGYM_SHIPPED_DATA) + "/policies/tensorplace";
  const Result r = run("eval tensorplace --split held-out --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json now = nlohmann::json::parse(r.out);
  EXPECT_FALSE(now["date"].get<std::string>().empty());
  EXPECT_GT(now["machine"]["cores"].get<int>(), 0);
  expect_same_result(now, read_json(dir + "/held-out.json"), "result");
}

// Runs share nothing and are pooled in order: the tables are the same whatever order the runs
// finish in, on a pool of threads as backwards on one.
TEST(Evaluation, TheTablesDoNotDependOnTheOrderTheRunsFinishIn) {
  const std::string file =
      std::string(SYSGYM_SHIPPED_DATA) + "/policies/tensorplace/ppo-per-operand.json";
  agents::EvaluationRequest request;
  request.trained.push_back(agents::trained_policy(read_json(file), file));
  request.settings = {"batch=16"};
  request.vary = {"model=vgg19,resnet50", "fast_memory=20%,80%"};
  request.seeds = 2;
  const auto tables = [&](ParallelFor parallel) {
    request.parallel = std::move(parallel);
    std::vector<std::uint64_t> progress;
    const nlohmann::json out =
        agents::evaluate_policies(
            cli::catalog().envs, cli::catalog().policies, request,
            [&](std::uint64_t done, std::uint64_t) { progress.push_back(done); })
            .tables;
    EXPECT_EQ(progress, (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7, 8}));
    return out;
  };
  const nlohmann::json in_order = tables({});
  ASSERT_EQ(in_order.size(), 4u);
  EXPECT_EQ(tables([](std::size_t n, const std::function<void(std::size_t)>& body) {
              for (std::size_t i = n; i-- > 0;)
                body(i);
            }),
            in_order);
  cli::ThreadPool pool(2);
  EXPECT_EQ(tables(pool.as_parallel_for()), in_order);
}

// A hindsight row is, per run, the best of its candidates (each a policy and its parameters),
// marked an oracle and naming the one it kept; no candidate keeps a row of its own. The summary
// says how far each learned policy goes from the `from` row toward it.
TEST(Evaluation, AHindsightRowKeepsEachRunsBestCandidate) {
  const std::string file = std::string(SYSGYM_SHIPPED_DATA) + "/policies/memtier/dqn-swap.json";
  agents::SplitRequest request;
  request.trained.push_back(agents::trained_policy(read_json(file), file));
  request.protocol.split = "held-out";
  request.protocol.key = "trace";
  const std::string real = std::string(SYSGYM_SHIPPED_DATA) + "/real/";
  request.protocol.members = {real + "minisat", real + "xz"};  // tuning beats first-touch at 5 %
  request.protocol.settings = {{"hbm_capacity", "5%"}};
  request.protocol.hindsight_from = "all-hbm-first-touch";
  request.baselines = {"all-hbm-first-touch"};
  request.seeds = 1;
  const std::vector<std::pair<std::string, nlohmann::json>> candidates = {
      {"lfu-hemem", nlohmann::json::object()},
      {"lfu-hemem", {{"hot_threshold", 4}, {"cool_threshold", 6}, {"period_ms", 1}}},
      {"memtis", {{"cooling_windows", 256}}}};
  const auto evaluate = [&](std::vector<std::pair<std::string, nlohmann::json>> c) {
    request.protocol.hindsight = {"tuned", std::move(c)};
    return agents::evaluate_split(cli::catalog().envs, cli::catalog().policies, request);
  };
  const auto row_of = [](const nlohmann::json& table, const std::string& policy) {
    for (const nlohmann::json& row : table["rows"]) {
      if (row["policy"] == policy) return row;
    }
    return nlohmann::json();
  };
  const nlohmann::json all = evaluate(candidates);
  EXPECT_EQ(
      all["hindsight"],
      (nlohmann::json{{"label", "tuned"}, {"from", "all-hbm-first-touch"}, {"candidates", 3}}));
  ASSERT_EQ(all["tables"].size(), 2u);
  double toward = 0, span = 0;
  for (std::size_t t = 0; t < 2; ++t) {
    const nlohmann::json& table = all["tables"][t];
    EXPECT_EQ(table["rows"].size(), 3u) << table.dump();  // learned, first-touch, tuned
    const nlohmann::json tuned = row_of(table, "tuned");
    ASSERT_TRUE(tuned.is_object()) << table.dump();
    EXPECT_TRUE(tuned["oracle"].get<bool>());
    EXPECT_EQ(table["best_oracle"], "tuned");
    // Each candidate alone: the row keeps the best of them, and names it.
    double best = -1e9;
    std::string best_name;
    for (const auto& c : candidates) {
      const nlohmann::json alone = row_of(evaluate({c})["tables"][t], "tuned");
      if (alone["gap_closed"].get<double>() > best) {
        best = alone["gap_closed"].get<double>();
        best_name = alone["tuned"].get<std::string>();
      }
    }
    EXPECT_EQ(tuned["gap_closed"].get<double>(), best);
    EXPECT_EQ(tuned["tuned"], best_name);
    const double from = row_of(table, "all-hbm-first-touch")["gap_closed"].get<double>();
    toward += row_of(table, "learned:" + file)["gap_closed"].get<double>() - from;
    span += best - from;
  }
  ASSERT_GT(span, 0);
  EXPECT_NEAR(all["summary"][0]["hindsight_share"].get<double>(), toward / span, 1e-12);
}

TEST_F(Cli, TheHeldOutProtocolPoolsSeedsAndSeparatesTasks) {
  const Result r = run("eval inline --split held-out --seeds 2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json result = nlohmann::json::parse(r.out);
  EXPECT_EQ(result["split"], "held-out");
  EXPECT_EQ(result["key"], "program");
  EXPECT_EQ(result["seeds"], 2);
  // The shipped policies were trained for two objectives: each is scored on its own, so each
  // held-out program (lmdb, lz4, bzip2) has a table per objective.
  ASSERT_EQ(result["tables"].size(), 6u);
  std::set<std::string> objectives;
  for (const auto& table : result["tables"]) {
    objectives.insert(table["config"]["objective"].get<std::string>());
    // Each table names the row its learned policies are judged against: the best one that
    // neither learns nor knows the future (clang's decisions, or size-threshold on bzip2), and the
    // best oracle.
    double best_other = -1e9, best_oracle = -1e9;
    bool oracles = false;
    for (const auto& row : table["rows"]) {
      const double score = row["score"].get<double>();
      if (row["oracle"].get<bool>()) {
        best_oracle = std::max(best_oracle, score);
        oracles = true;
      } else if (row["policy"].get<std::string>().rfind("learned:", 0) != 0) {
        best_other = std::max(best_other, score);
      }
    }
    for (const auto& row : table["rows"]) {
      if (row["policy"] == table["best_other"]) {
        EXPECT_EQ(row["score"], best_other);
      }
      if (row["policy"] == table["best_oracle"]) {
        EXPECT_EQ(row["score"], best_oracle);
      }
    }
    ASSERT_TRUE(table["best_other"].is_string()) << table.dump();
    EXPECT_FALSE(table["best_other"].get<std::string>().starts_with("learned:")) << table.dump();
    EXPECT_EQ(table["best_oracle"].is_null(), !oracles) << table.dump();  // inline has none
    for (const auto& row : table["rows"]) {
      // Each episode seed once per policy file: the FYP policies ship three training seeds.
      const bool fyp = row["policy"].get<std::string>().starts_with("learned:fyp-");
      EXPECT_EQ(row["runs"], fyp ? 6 : 2) << row.dump();
      if (row["policy"] == "random") {  // the one policy whose episodes differ by episode seed
        EXPECT_LT(row["score_min"].get<double>(), row["score_max"].get<double>());
      }
    }
  }
  EXPECT_EQ(objectives, (std::set<std::string>{"instructions", "size"}));
  ASSERT_EQ(result["summary"].size(), 3u);
  for (const auto& s : result["summary"]) {
    EXPECT_EQ(s["tables"], 3) << s.dump();  // each policy meets each program once
    EXPECT_LE(s["beats_best_other"], s["within_0_01_of_best_other"]);
    // The best single other is chosen once, over the tables of the policy's own objective: the
    // non-learned, non-oracle row with the best mean there. It is never ahead of each table's
    // best other, so the policy is within 0.01 of it at least as often.
    const nlohmann::json& single = s["best_single_other"];
    ASSERT_TRUE(single.is_object()) << s.dump();
    std::map<std::string, double> sums;
    for (const auto& table : result["tables"]) {
      const auto& rows = table["rows"];
      if (std::none_of(rows.begin(), rows.end(),
                       [&](const auto& row) { return row["policy"] == s["policy"]; }))
        continue;
      for (const auto& row : rows) {
        if (!row["oracle"].get<bool>() && !row["policy"].get<std::string>().starts_with("learned:"))
          sums[row["policy"].get<std::string>()] += row["score"].get<double>() / 3;
      }
    }
    for (const auto& [name, mean] : sums)
      EXPECT_LE(mean, single["mean"].get<double>()) << name;
    EXPECT_DOUBLE_EQ(sums.at(single["policy"].get<std::string>()), single["mean"].get<double>());
    EXPECT_GE(single["within_0_01"], s["within_0_01_of_best_other"]);
    EXPECT_LE(single["mean"].get<double>(), s["best_other_mean"].get<double>());
  }
  // The text says where each stands.
  const Result text = run("eval inline --split held-out --seeds 1");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(
      text.out.find("held-out split of inline-v0 (program: lmdb, lz4, bzip2), 1 seeds from 0"),
      std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("learned:fyp-size.json: score "), std::string::npos) << text.out;
}

TEST_F(Cli, TheHeldOutProtocolRefusesWhatItCannotRun) {
  const Result split = run("eval tensorplace --split test");
  EXPECT_EQ(split.code, 1);
  EXPECT_NE(split.err.find("no split 'test' in "), std::string::npos) << split.err;
  EXPECT_NE(split.err.find("train or held-out"), std::string::npos) << split.err;
  const Result vary = run("eval tensorplace --split held-out --vary fast_memory=10%");
  EXPECT_EQ(vary.code, 1);
  EXPECT_NE(vary.err.find("--split runs the settings its manifest gives"), std::string::npos)
      << vary.err;
  const Result no_env = run("eval --split held-out");
  EXPECT_EQ(no_env.code, 1);
  EXPECT_NE(no_env.err.find("name the env whose split to evaluate"), std::string::npos)
      << no_env.err;
  const Result seeds = run("eval tensorplace --split held-out --seeds 0");
  EXPECT_EQ(seeds.code, 1);
  EXPECT_NE(seeds.err.find("--seeds"), std::string::npos) << seeds.err;
  // A policy of another env is named.
  const Result other =
      run("eval inline --split held-out --policy " + std::string(SYSGYM_SHIPPED_DATA) +
          "/policies/tensorplace/ppo-per-operand.json");
  EXPECT_EQ(other.code, 1);
  EXPECT_NE(other.err.find("was trained on tensorplace-v0, not inline-v0"), std::string::npos)
      << other.err;
  // Without --split, a policy is still required (a usage error, as before).
  EXPECT_EQ(run("eval tensorplace").code, 2);
}

}  // namespace
}  // namespace sysgym::testing
