// `sysgym train` and `sysgym eval`, and learned policies in `sysgym run`.
#include "cli/cli_fixture.hpp"

namespace sysgym::testing {
namespace {

const std::string kSmall =
    " memtier --vary trace=synth:phased:6000:1,synth:stream:6000:2 --vary hbm_capacity=10%,30% "
    "--steps 2400 --curve-every 600 bins=8 episode_length=40 ";

TEST_F(Cli, TrainWritesAPolicyThatRunsAndEvaluates) {
  const Result train =
      run("train" + kSmall +  // no --agent: memtier trains dqn by default
          "--agent-config '{\"hidden\": [16], \"learning_starts\": 200}' --curve " +
          path("curve.csv") + " -o " + path("dqn.json"));
  ASSERT_EQ(train.code, 0) << train.err;
  const nlohmann::json policy = read_json(path("dqn.json"));
  EXPECT_EQ(policy["agent"], "dqn");
  EXPECT_EQ(policy["action_space"], "Discrete(17)");
  EXPECT_EQ(policy["training"]["env_steps"], 2400);
  ASSERT_EQ(policy["training"]["envs"].size(), 4u);  // 2 traces x 2 capacities
  EXPECT_EQ(policy["training"]["envs"][1]["trace"], "synth:phased:6000:1");  // the last --vary
  EXPECT_EQ(policy["training"]["envs"][1]["hbm_capacity"], "30%");           // varies fastest
  EXPECT_EQ(policy["training"]["envs"][1]["action_mode"], "discrete");       // memtier's hook
  EXPECT_EQ(policy["training"]["envs"][1]["random_start"], true);
  const std::string curve = slurp(path("curve.csv"));
  EXPECT_EQ(curve.substr(0, curve.find('\n')),
            "env_steps,episodes,mean_return,mean_gap_closed,loss");
  EXPECT_EQ(std::count(curve.begin(), curve.end(), '\n'), 5);  // header + 4 points

  // The policy runs like any other, deterministically.
  const std::string run_args =
      "run memtier trace=synth:phased:6000:1 --policy learned --policy-config " + path("dqn.json") +
      " --json";
  const Result first = run(run_args), second = run(run_args);
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_EQ(first.out, second.out);

  const Result eval =
      run("eval --policy " + path("dqn.json") +
          " trace=synth:random:6000:3 hbm_capacity=20% --baselines lru,all-ddr --json");
  ASSERT_EQ(eval.code, 0) << eval.err;
  const nlohmann::json e = nlohmann::json::parse(eval.out);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0]["config"]["hbm_capacity"], "20%");
  EXPECT_EQ(e[0]["config"]["episode_length"], 0);      // whole episodes
  EXPECT_EQ(e[0]["config"].count("action_mode"), 0u);  // baselines run as compare runs them
  ASSERT_EQ(e[0]["rows"].size(), 3u);
  std::vector<std::string> names;
  for (const auto& row : e[0]["rows"])
    names.push_back(row["policy"]);
  EXPECT_NE(std::find(names.begin(), names.end(), "learned:" + path("dqn.json")), names.end());

  // A preprocessed pair keeps its own windows: eval does not pass the policy's window options.
  const std::string p = synth("stencil", 6000);
  ASSERT_EQ(
      run("preprocess --ddr " + p + ".ddr.csv --hbm " + p + ".hbm.csv -o " + path("s.bin")).code,
      0);
  const Result prepared = run("eval memtier --policy " + path("dqn.json") +
                              " --vary trace=" + path("s.bin") + " --baselines all-ddr --json");
  ASSERT_EQ(prepared.code, 0) << prepared.err;
  EXPECT_EQ(nlohmann::json::parse(prepared.out)[0]["rows"].size(), 2u);
}

TEST_F(Cli, TrainingWritesCheckpointsThatRun) {
  // A checkpoint is the policy so far: the same file format, usable at once.
  const Result r = run("train --agent ppo" + kSmall +
                       "--agent-config '{\"hidden\": [8], "
                       "\"rollout_steps\": 20}' --checkpoint-every 1200 -o " +
                       path("c.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_json(path("c.json"))["training"]["env_steps"], 2400);
  const Result use = run("run memtier trace=synth:stream:6000:2 --policy learned --policy-config " +
                         path("c.json"));
  EXPECT_EQ(use.code, 0) << use.err;
}

TEST_F(Cli, TrainingResumesFromItsStateFile) {
  for (const std::string agent : {"dqn", "ppo"}) {
    const std::string out = path(agent + ".json");
    const Result r =
        run("train --agent " + agent + kSmall + "--agent-config '{\"hidden\": [8]" +
            (agent == "ppo" ? ", \"rollout_steps\": 20" : ", \"learning_starts\": 100") +
            "}' --checkpoint-every 1200 --curve " + path("a.csv") + " -o " + out);
    ASSERT_EQ(r.code, 0) << r.err;
    ASSERT_TRUE(fs::exists(out + ".state"));
    // The same state resumed twice is the same run; it goes on from 2400 steps to 3600.
    const std::string resume = "train --resume " + out + ".state --steps 3600 -o ";
    const Result first = run(resume + path("r1.json") + " --curve " + path("r1.csv"));
    ASSERT_EQ(first.code, 0) << first.err;
    EXPECT_NE(first.err.find("resumed " + agent + " at 2400 env steps"), std::string::npos);
    ASSERT_EQ(run(resume + path("r2.json")).code, 0);
    const nlohmann::json r1 = read_json(path("r1.json")), r2 = read_json(path("r2.json"));
    EXPECT_EQ(r1["network"], r2["network"]);
    EXPECT_EQ(r1["training"]["env_steps"], 3600);
    EXPECT_EQ(r1["training"]["vary"], read_json(out)["training"]["vary"]);
    EXPECT_NE(r1["network"], read_json(out)["network"]);  // it learned on
    const std::string curve = slurp(path("r1.csv"));
    EXPECT_EQ(std::count(curve.begin(), curve.end(), '\n'), 7);  // header + 6 points
    EXPECT_EQ(curve.substr(0, curve.find('\n', curve.find('\n') + 1)),
              slurp(path("a.csv")).substr(0, curve.find('\n', curve.find('\n') + 1)));
  }
  const Result both = run("train --resume " + path("ppo.json.state") +
                          " --vary trace=synth:phased -o " + path("x.json"));
  EXPECT_EQ(both.code, 2) << both.err;  // usage error: the state says which traces
  EXPECT_NE(both.err.find("--resume excludes --vary"), std::string::npos) << both.err;
  const Result env =
      run("train --resume " + path("ppo.json.state") + " memtier -o " + path("x.json"));
  EXPECT_EQ(env.code, 2) << env.err;
  const Result not_state = run("train --resume " + path("ppo.json") + " -o " + path("x.json"));
  EXPECT_EQ(not_state.code, 1);
  EXPECT_EQ(not_state.err.find("sysgym: ConfigError: --resume " + path("ppo.json") +
                               ": not a training state"),
            0u)
      << not_state.err;
  EXPECT_FALSE(fs::exists(path("x.json")));
}

TEST_F(Cli, PerBinAgentsTrainActAndResume) {
  const std::vector<std::pair<std::string, std::string>> agents = {
      {"dqn", "{\"hidden\": [8], \"q_network\": \"per_bin\", \"learning_starts\": 100}"},
      {"ppo",
       "{\"hidden\": [8], \"policy_network\": \"per_bin\", \"flip_actions\": true, "
       "\"rollout_steps\": 20}"}};
  for (const auto& [agent, config] : agents) {
    const std::string out = path(agent + "-bins.json");
    const Result r = run("train --agent " + agent + kSmall + "--agent-config '" + config +
                         "' --checkpoint-every 1200 -o " + out);
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json policy = read_json(out);
    EXPECT_EQ(policy["per_bin"]["bins"], 8);
    EXPECT_EQ(policy["network"]["sizes"][0], 4 + 2 + 5);  // 4 channels, 2 ranks, 5 scalars
    EXPECT_EQ(policy["value_network"].is_null(), agent == "ppo");
    const std::string use =
        "run memtier trace=synth:stream:6000:2 --policy learned --policy-config " + out + " --json";
    const Result first = run(use), second = run(use);
    ASSERT_EQ(first.code, 0) << first.err;
    EXPECT_EQ(first.out, second.out);
    EXPECT_EQ(run("train --resume " + out + ".state --steps 3000 -o " + path("more.json")).code, 0);
  }
}

TEST_F(Cli, ACapacityRangeTrainsAcrossCapacitiesAndEvaluatesAtBothEnds) {
  const Result r =
      run("train memtier --agent dqn trace=synth:phased:6000:1 'hbm_capacity=[\"10%\",\"30%\"]' "
          "--steps 600 bins=8 episode_length=40 --agent-config '{\"hidden\": [8]}' -o " +
          path("range.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(read_json(path("range.json"))["env"]["config"]["hbm_capacity"],
            nlohmann::json::array({"10%", "30%"}));
  const Result eval = run("eval --policy " + path("range.json") +
                          " trace=synth:phased:6000:1 --baselines all-ddr --json");
  ASSERT_EQ(eval.code, 0) << eval.err;
  const nlohmann::json e = nlohmann::json::parse(eval.out);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0]["config"]["hbm_capacity"], "10%");
  EXPECT_EQ(e[1]["config"]["hbm_capacity"], "30%");
  const Result bad =
      run("train memtier --agent dqn trace=synth:phased:6000:1 'hbm_capacity=[\"30%\",\"10%\"]' "
          "--steps 100 -o " +
          path("bad.json"));
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("'hbm_capacity' range [\"30%\",\"10%\"] has its low end"),
            std::string::npos)
      << bad.err;
}

TEST_F(Cli, ShippedPoliciesReproduceTheirResults) {
  const std::string dir = std::string(SYSGYM_SHIPPED_DATA) + "/policies/memtier";
  const nlohmann::json manifest = read_json(dir + "/manifest.json");
  const nlohmann::json results = read_json(dir + "/results.json");
  // The same command data/policies/memtier/reproduce.mjs runs, from the repository root.
  const std::string root = std::string(SYSGYM_SHIPPED_DATA) + "/..";
  std::string traces, capacities, policies;
  // The shipped real programs held out: every policy file meets every trace shape there. The
  // held-out synthetic programs (200 k samples each) made this test 290 s of the ASan stage's
  // 490; their generator is pinned by its own tests and the wasm parity cases.
  std::size_t real_traces = 0;
  for (const auto& held_out : manifest["split"]["held_out"]) {
    const std::string name = held_out.get<std::string>();
    if (name.rfind("synth:", 0) == 0) continue;
    traces += (traces.empty() ? "" : ",") + name;  // shipped names
    ++real_traces;
  }
  for (const auto& c : manifest["vary"]["hbm_capacity"])
    capacities += (capacities.empty() ? "" : ",") + c.get<std::string>();
  for (const auto& p : manifest["policies"])
    policies += " --policy " + root + "/data/policies/memtier/" + p["file"].get<std::string>();
  const Result r = run("eval" + policies + " --vary trace=" + traces +
                       " --vary hbm_capacity=" + capacities + " --baselines all-ddr --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json now = nlohmann::json::parse(r.out);
  std::size_t compared = 0;
  for (const auto& table : now) {
    const std::string trace = fs::path(table["config"]["trace"].get<std::string>()).filename();
    for (const auto& row : table["rows"]) {
      const std::string policy = row["policy"];
      if (policy.rfind("learned:", 0) != 0) continue;
      const std::string file = fs::path(policy.substr(8)).filename();
      for (const auto& recorded : results) {
        if (fs::path(recorded["config"]["trace"].get<std::string>()).filename() != trace ||
            recorded["config"]["hbm_capacity"] != table["config"]["hbm_capacity"]) {
          continue;
        }
        for (const auto& old : recorded["rows"]) {
          if (old["policy"] != "learned:data/policies/memtier/" + file) continue;
          EXPECT_NEAR(row["total_ms"].get<double>(), old["total_ms"].get<double>(), 1e-9)
              << file << " on " << trace << " at " << table["hbm_capacity"];
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, manifest["policies"].size() * real_traces * manifest["vary"]["hbm_capacity"].size());
}

TEST_F(Cli, TrainingIsReproducibleBySeed) {
  const std::string args =
      "train --agent ppo" + kSmall +
      "--agent-config '{\"hidden\": [16], \"rollout_steps\": 20}' --seed 4 -o ";
  ASSERT_EQ(run(args + path("a.json")).code, 0);
  ASSERT_EQ(run(args + path("b.json")).code, 0);
  const nlohmann::json a = read_json(path("a.json")), b = read_json(path("b.json"));
  EXPECT_EQ(a["agent"], "ppo");
  EXPECT_EQ(a["action_space"], "MultiBinary(8)");
  EXPECT_EQ(a["network"], b["network"]);
  EXPECT_EQ(a["normalizer"], b["normalizer"]);
}

TEST_F(Cli, LearnedPolicyMismatchesAndBadFilesAreClearErrors) {
  ASSERT_EQ(
      run("train --agent dqn" + kSmall + "--agent-config '{\"hidden\": [8]}' -o " + path("p.json"))
          .code,
      0);
  const Result bins =
      run("run memtier trace=synth:phased:6000:1 bins=16 --policy learned --policy-config " +
          path("p.json"));
  EXPECT_EQ(bins.code, 1);
  // Caught by the policy's contract before any space is built.
  EXPECT_EQ(bins.err,
            "sysgym: ConfigError: bins=16 contradicts the learned policy, which was trained with "
            "bins=8 (action_mode=discrete, admission=hottest, bins=8, history=2, "
            "interval_distance=22): leave bins out and the policy sets it, or use a policy "
            "trained for bins=16\n");
  // A file that does not record bins (edited by hand) meets the spaces' check instead.
  nlohmann::json edited = nlohmann::json::parse(slurp(path("p.json")));
  edited["env"]["config"].erase("bins");
  std::ofstream(path("no-bins.json")) << edited.dump();
  const Result spaces =
      run("run memtier trace=synth:phased:6000:1 bins=16 --policy learned --policy-config " +
          path("no-bins.json"));
  EXPECT_EQ(spaces.err,
            "sysgym: ConfigError: the policy acts in Discrete(17) but the env's action space is "
            "Discrete(33) (train it with the same bins and action_mode)\n");
  const Result ppo =
      run("train memtier --agent ppo trace=synth:phased:6000 action_mode=discrete -o " +
          path("x.json"));
  EXPECT_EQ(ppo.code, 1);
  EXPECT_NE(ppo.err.find(
                "ppo needs a MultiBinary or Discrete(2) action space; memtier-v0 has Discrete(129) "
                "(set \"action_mode\": \"bins\", or use dqn)"),
            std::string::npos)
      << ppo.err;
  // An env that acts in MultiBinary only trains ppo by default, and says so when asked for dqn.
  const Result tp =
      run("train tensorplace-v0 model=vgg16 batch=1 --steps 300 -o " + path("tp.json"));
  ASSERT_EQ(tp.code, 0) << tp.err;
  EXPECT_EQ(read_json(path("tp.json"))["agent"], "ppo");
  EXPECT_NE(tp.out.find("trained ppo for"), std::string::npos) << tp.out;
  const Result dqn =
      run("train tensorplace-v0 model=vgg16 batch=1 --agent dqn -o " + path("x.json"));
  EXPECT_EQ(dqn.code, 1);
  EXPECT_EQ(dqn.err,
            "sysgym: ConfigError: dqn needs a Discrete action space; tensorplace-v0 has "
            "MultiBinary(8) (use ppo)\n");
  const Result deep = run("train memtier --vary 'trace=" + std::string(1000, '[') +
                          std::string(1000, ']') + "' -o " + path("x.json"));
  EXPECT_EQ(deep.code, 1);
  EXPECT_EQ(deep.err.rfind("sysgym: ConfigError: --vary memtier-v0: JSON nested deeper than 64", 0),
            0u)
      << deep.err.substr(0, 300);
  std::ofstream(path("bad.json")) << "{\"kind\": \"sysgym-policy\", \"schema_version\": 7}";
  const Result bad = run("eval --policy " + path("bad.json") + " trace=synth:phased:6000");
  EXPECT_EQ(bad.code, 1);
  EXPECT_EQ(bad.err, "sysgym: ConfigError: " + path("bad.json") +
                         ": policy file schema_version 7 is not supported (this sysgym reads "
                         "version 1)\n");
  EXPECT_FALSE(fs::exists(path("x.json")));
}

}  // namespace
}  // namespace sysgym::testing
