// Runs the built `sysgym` executable as a user would and checks its output, exit codes and
// files.
#include "cli/cli_fixture.hpp"

namespace sysgym::testing {
namespace {

TEST_F(Cli, HelpListsEveryCommand) {
  const Result r = run("--help");
  EXPECT_EQ(r.code, 0);
  for (const char* command : {"estimate", "preprocess", "inspect", "synth"}) {
    EXPECT_NE(r.out.find(command), std::string::npos) << command;
  }
  EXPECT_NE(run("estimate --help").out.find("Examples:"), std::string::npos);
}

TEST_F(Cli, EstimateJsonHasTheDocumentedFields) {
  const std::string p = synth("phased");
  const Result r = run("estimate --ddr " + p + ".ddr.csv --hbm " + p + ".hbm.csv --hbm-range " +
                       "0x7f3a00000000:0x7f3a01000000 --measured " + p + ".mixed.csv --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  for (const char* key : {"estimated_ms", "ddr_ms", "hbm_ms", "windows", "error", "measured_ms"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_LT(j["estimated_ms"].get<double>(), j["ddr_ms"].get<double>());
  EXPECT_GT(j["estimated_ms"].get<double>(), j["hbm_ms"].get<double>());
  EXPECT_LT(j["error"].get<double>(), 0.05);
  EXPECT_EQ(j["mode"], "memai");
  EXPECT_EQ(j["unit"], "ms");
  EXPECT_EQ(j["page_size"], 13);
  EXPECT_TRUE(r.err.empty()) << "no progress output when stderr is not a terminal: " << r.err;
}

TEST_F(Cli, TextOutputShowsTimesAndError) {
  const std::string p = synth("stream");
  const Result r = run("estimate --ddr " + p + ".ddr.csv --hbm " + p + ".hbm.csv --hbm-range " +
                       "7f3a00000000:7f3a01000000 --measured " + p + ".mixed.csv");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* text : {"DDR run", "HBM run", "estimated", "measured", "relative error"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
  }
}

TEST_F(Cli, PreprocessedPairGivesTheSameEstimateAsTheTraces) {
  const std::string p = synth("stencil");
  const std::string bin = path("stencil.bin");
  ASSERT_EQ(
      run("preprocess --ddr " + p + ".ddr.csv --hbm " + p + ".hbm.csv --mode aligned -o " + bin)
          .code,
      0);
  const std::string range = " --hbm-range 0x7f3a00000000:0x7f3a00800000 --json";
  const Result direct =
      run("estimate --ddr " + p + ".ddr.csv --hbm " + p + ".hbm.csv --mode aligned" + range);
  const Result prepared = run("estimate --input " + bin + range);
  ASSERT_EQ(direct.code, 0) << direct.err;
  ASSERT_EQ(prepared.code, 0) << prepared.err;
  EXPECT_EQ(nlohmann::json::parse(direct.out)["estimated_ms"],
            nlohmann::json::parse(prepared.out)["estimated_ms"]);
  EXPECT_EQ(nlohmann::json::parse(prepared.out)["mode"], "aligned");
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().string().find(".tmp-"), std::string::npos) << entry.path();
  }
  // The pair by name, as the env's trace key takes it, preprocesses the same.
  const std::string named = path("named.bin");
  ASSERT_EQ(run("preprocess --trace " + p + " --mode aligned -o " + named).code, 0);
  EXPECT_EQ(nlohmann::json::parse(run("estimate --input " + named + range).out)["estimated_ms"],
            nlohmann::json::parse(prepared.out)["estimated_ms"]);
}

TEST_F(Cli, WindowOptionsCannotChangeAPreprocessedPair) {
  const std::string p = synth("random", 2000);
  const std::string bin = path("random.bin");
  ASSERT_EQ(run("preprocess --ddr " + p + ".ddr.csv --hbm " + p + ".hbm.csv -o " + bin).code, 0);
  const Result r = run("estimate --input " + bin + " --unit instrs");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(
      r.err,
      "sysgym: ConfigError: window options (--mode, --unit, --window-len, --page-size, "
      "--cpu-cycles-per-ms) are fixed when a pair is preprocessed; run `sysgym memtier preprocess` "
      "again to change them\n");
}

TEST_F(Cli, BadInputsExitWithOneAndAMessage) {
  const std::string p = synth("stream", 1000);
  struct Case {
    std::string args;
    std::string message;
  };
  std::ofstream(path("bad.csv")) << "Timestamp,Vaddr\n1,0x10\n2,oops\n";
  std::ofstream(path("empty.csv")).close();
  const std::string pair = " --ddr " + p + ".ddr.csv --hbm " + p + ".hbm.csv";
  const std::vector<Case> cases = {
      {"estimate --ddr " + path("nope.csv") + " --hbm " + path("nope.csv"),
       "sysgym: IoError: cannot open '" + path("nope.csv") + "': No such file or directory\n"},
      {"estimate --ddr " + path("bad.csv") + " --hbm " + p + ".hbm.csv",
       "sysgym: TraceFormatError: " + path("bad.csv") +
           ":3: column 'Vaddr': 'oops' is not an address (decimal or 0x-hex)\n"},
      {"estimate --ddr " + path("empty.csv") + " --hbm " + p + ".hbm.csv",
       "sysgym: TraceFormatError: " + path("empty.csv") + ": the file is empty\n"},
      {"estimate" + pair + " --unit sec",
       "sysgym: UnknownNameError: unknown unit 'sec'; valid: ms, instrs, accesses\n"},
      {"estimate" + pair + " --page-size 3",
       "sysgym: ConfigError: --page-size: '3' is not a whole number from 6 to 30\n"},
      {"estimate" + pair + " --hbm-range 0x2000:0x1000",
       "sysgym: ConfigError: HBM range '0x2000:0x1000': LO must be below HI (ranges are half-open "
       "[LO, HI))\n"},
      {"estimate",
       "sysgym: ConfigError: give the trace pair with --trace NAME, --ddr FILE --hbm FILE, or a "
       "preprocessed pair with --input FILE\n"},
      {"estimate --input " + p + ".ddr.csv",
       "sysgym: TraceFormatError: " + p + ".ddr.csv: not a sysgym binary file (bad magic)\n"},
      {"preprocess -o " + path("none.bin"),
       "sysgym: ConfigError: give the trace pair with --trace NAME or --ddr FILE --hbm FILE\n"},
  };
  for (const Case& c : cases) {
    const Result r = run(c.args);
    EXPECT_EQ(r.code, 1) << c.args;
    EXPECT_EQ(r.err, c.message) << c.args;
    EXPECT_TRUE(r.out.empty()) << c.args;
  }
}

TEST_F(Cli, UsageErrorsExitWithTwo) {
  EXPECT_EQ(run("estimate --bogus").code, 2);
  EXPECT_EQ(run("frobnicate").code, 2);
  EXPECT_EQ(run("synth --pattern nope -o x").code, 2);
}

TEST_F(Cli, AFailedPreprocessLeavesThePreviousOutputIntact) {
  const std::string p = synth("stream", 1000);
  const std::string bin = path("out.bin");
  ASSERT_EQ(run("preprocess --ddr " + p + ".ddr.csv --hbm " + p + ".hbm.csv -o " + bin).code, 0);
  const std::string before = slurp(bin);
  std::ofstream(path("broken.csv")) << "Timestamp,Vaddr\n5,1\n4,1\n";
  EXPECT_EQ(
      run("preprocess --ddr " + path("broken.csv") + " --hbm " + p + ".hbm.csv -o " + bin).code, 1);
  EXPECT_EQ(slurp(bin), before);
}

TEST_F(Cli, SynthIsDeterministicBySeed) {
  const std::string a = synth("phased", 3000, 5);
  const std::string first = slurp(a + ".ddr.csv");
  synth("phased", 3000, 5);
  EXPECT_EQ(slurp(a + ".ddr.csv"), first);
  synth("phased", 3000, 6);
  EXPECT_NE(slurp(a + ".ddr.csv"), first);
  ASSERT_EQ(run("synth --pattern random --samples 100 --format bin -o " + path("r")).code, 0);
  EXPECT_TRUE(fs::exists(path("r.ddr.bin")));
}

TEST_F(Cli, InspectDescribesTracesAndPreprocessedPairs) {
  const std::string p = synth("phased", 4000);
  const Result trace = run("inspect " + p + ".ddr.csv --json");
  ASSERT_EQ(trace.code, 0) << trace.err;
  const nlohmann::json t = nlohmann::json::parse(trace.out);
  EXPECT_EQ(t["samples"], 4000);
  EXPECT_EQ(t["phases"], 4);
  EXPECT_EQ(t["format"], "MemAI CSV");
  EXPECT_GE(t["regions"].get<int>(), 1);
  ASSERT_EQ(
      run("preprocess --ddr " + p + ".ddr.csv --hbm " + p + ".hbm.csv -o " + path("p.bin")).code,
      0);
  const Result prepared = run("inspect " + path("p.bin"));
  ASSERT_EQ(prepared.code, 0) << prepared.err;
  EXPECT_NE(prepared.out.find("prepared-pair"), std::string::npos);
  EXPECT_NE(prepared.out.find("largest regions"), std::string::npos);
}

TEST_F(Cli, JsonReportsNameFilesWhoseNamesAreNotUtf8) {
  // A file name may hold any byte but NUL; JSON holds UTF-8 only. The report still prints, the
  // stray byte as U+FFFD, instead of failing after the work is done.
  const std::string p = synth("phased", 2000);
  const std::string odd = path("odd\xff.bin");
  ASSERT_EQ(run("memtier preprocess --trace " + p + " -o '" + odd + "'").code, 0);
  for (const std::string& command : {"memtier inspect '" + odd + "' --json",
                                     "run memtier 'trace=" + odd + "' --policy lru --json"}) {
    const Result r = run(command);
    ASSERT_EQ(r.code, 0) << command << ": " << r.err;
    EXPECT_NE(r.out.find("odd\xEF\xBF\xBD.bin"), std::string::npos) << command << ": " << r.out;
    EXPECT_TRUE(nlohmann::json::accept(r.out)) << command;
  }
}

TEST_F(Cli, ReadsPerfScriptTraces) {
  const Result r = run("inspect " + std::string(SYSGYM_TEST_DATA) + "/perf_mem.txt --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["format"], "perf script");
}

TEST_F(Cli, EstimateTakesTheEnvsTraceNames) {
  const std::string data = SYSGYM_SHIPPED_DATA;
  const std::string flags = " --hbm-range 0x7f3a00000000:0x7f3a01000000 --json";
  const Result files = run("estimate --ddr " + data + "/synth/phased.ddr.csv --hbm " + data +
                           "/synth/phased.hbm.csv" + flags);
  const Result prefix = run("estimate --trace " + data + "/synth/phased" + flags);
  const Result shipped = run("estimate --trace phased" + flags);
  ASSERT_EQ(files.code, 0) << files.err;
  ASSERT_EQ(prefix.code, 0) << prefix.err;
  ASSERT_EQ(shipped.code, 0) << shipped.err;
  EXPECT_EQ(prefix.out, files.out);
  EXPECT_EQ(shipped.out, files.out);
}

TEST_F(Cli, ShippedDemoPairEstimates) {
  const std::string data = SYSGYM_SHIPPED_DATA;
  const Result r =
      run("estimate --ddr " + data + "/synth/phased.ddr.csv --hbm " + data +
          "/synth/phased.hbm.csv --hbm-range 0x7f3a00000000:0x7f3a01000000 --measured " + data +
          "/synth/phased.mixed.csv --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(nlohmann::json::parse(r.out)["error"].get<double>(), 0.05);
}

TEST_F(Cli, CompareRunsEveryPolicyBestTotalTimeFirst) {
  const std::string p = synth("phased", 8000, 1, "32MiB");
  const Result r =
      run("compare memtier trace=" + p + ".ddr.csv," + p + ".hbm.csv hbm_capacity=10% --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json rows = nlohmann::json::parse(r.out);
  ASSERT_EQ(rows.size(), 12u);
  double previous = 0.0;
  for (const auto& row : rows) {
    for (const char* key : {"policy", "estimated_ms", "migration_ms", "total_ms", "gap_closed",
                            "bytes_moved", "return"}) {
      ASSERT_TRUE(row.contains(key)) << key;
    }
    // Best first is least total time (migration included) first.
    EXPECT_GE(row["total_ms"].get<double>(), previous);
    EXPECT_DOUBLE_EQ(row["total_ms"].get<double>(),
                     row["estimated_ms"].get<double>() + row["migration_ms"].get<double>());
    previous = row["total_ms"].get<double>();
  }
  // The window oracle ignores migration, so it need not come first, but its memory time bounds
  // every policy's.
  for (const auto& bound : rows) {
    if (bound["policy"] != "window-oracle") continue;
    for (const auto& row : rows)
      EXPECT_LE(bound["estimated_ms"].get<double>(),
                row["estimated_ms"].get<double>() * (1 + 1e-12));
  }
}

TEST_F(Cli, CompareAcceptsAPreprocessedPairButNotWindowOptionsForIt) {
  const std::string p = synth("stream", 4000);
  const std::string bin = path("stream.bin");
  ASSERT_EQ(run("preprocess --ddr " + p + ".ddr.csv --hbm " + p + ".hbm.csv -o " + bin).code, 0);
  const Result ok = run("compare memtier trace=" + bin +
                        " hbm_capacity=8MiB --policies all-ddr,static-oracle --json");
  ASSERT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(nlohmann::json::parse(ok.out).size(), 2u);
  // The footer explains "*" only where an oracle is in the table.
  const Result text =
      run("compare memtier trace=" + bin + " hbm_capacity=8MiB --policies all-ddr,static-oracle");
  EXPECT_NE(text.out.find("* oracle (knows the future)"), std::string::npos) << text.out;
  const Result plain =
      run("compare memtier trace=" + bin + " hbm_capacity=8MiB --policies all-ddr");
  EXPECT_EQ(plain.out.find("oracle"), std::string::npos) << plain.out;
  EXPECT_NE(plain.out.find("Sorted best first by total_ms"), std::string::npos) << plain.out;
  const Result refused = run("compare memtier trace=" + bin + " hbm_capacity=8MiB page_size=12");
  EXPECT_EQ(refused.code, 1);
  EXPECT_EQ(refused.err,
            "sysgym: ConfigError: trace '" + bin +
                "' is a preprocessed pair: its windows are fixed, so window options (window_mode, "
                "window_len, unit, page_size, cpu_cycles_per_ms) cannot be given\n");
}

TEST_F(Cli, RunMatchesTheCompareRowAndRecordsAReplayableEpisode) {
  const std::string p = synth("phased", 6000, 1, "32MiB");
  const std::string traces = " trace=" + p + ".ddr.csv," + p + ".hbm.csv";
  const Result one = run("run memtier" + traces +
                         " --policy lru --config '{\"hbm_capacity\": \"10%\"}' --json --record " +
                         path("episode.json"));
  ASSERT_EQ(one.code, 0) << one.err;
  const Result all = run("compare memtier" + traces + " hbm_capacity=10% --json");
  ASSERT_EQ(all.code, 0) << all.err;
  const nlohmann::json summary = nlohmann::json::parse(one.out);
  for (const auto& row : nlohmann::json::parse(all.out)) {
    if (row["policy"] == "lru") {
      EXPECT_EQ(row["total_ms"], summary["total_ms"]);
    }
  }
  const nlohmann::json episode = nlohmann::json::parse(slurp(path("episode.json")));
  EXPECT_EQ(episode["schema_version"], 2);
  EXPECT_EQ(episode["policy"], "lru");
  EXPECT_EQ(episode["return"], summary["return"]);
  EXPECT_EQ(episode["steps"].size(), summary["windows"].get<std::size_t>());
  EXPECT_EQ(episode["summary"]["total_ms"], summary["total_ms"]);
}

// One trace syntax: PREFIX finds PREFIX.ddr.* + PREFIX.hbm.* in any format, a bare name finds a
// shipped pair, and a name that is none of the forms says which forms and names exist.
// `memtier traces` rates every shipped pair: its gap is what any placement can win, and the
// static oracle's share of it agrees with a run of the oracle on the whole trace.
TEST_F(Cli, TracesRatesEveryShippedPairByGapAndOracleHeadroom) {
  const Result r = run("memtier traces --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json rows = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (const nlohmann::json& row : rows) {
    names.push_back(row.at("trace"));
    const double ddr = row.at("ddr_ms");
    const double hbm = row.at("hbm_ms");
    EXPECT_GT(ddr, hbm) << row.dump();
    EXPECT_DOUBLE_EQ(row.at("gap_share").get<double>(), (ddr - hbm) / ddr);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"gcc-cc1", "glpk", "graphviz-sccmap",
                                             "hpcc-randomaccess", "hpcc-stream", "kyotocabinet",
                                             "lammps", "minisat", "phased", "sqlite", "xz"}));
  const Result oracle =
      run("run memtier trace=xz hbm_capacity=10% episode_length=0 --policy static-oracle --json");
  ASSERT_EQ(oracle.code, 0) << oracle.err;
  EXPECT_EQ(rows[10].at("static_oracle_gap_closed"),
            nlohmann::json::parse(oracle.out).at("gap_closed"));
  const Result text = run("memtier traces --hbm-capacity 5% sqlite");
  EXPECT_EQ(text.out.rfind("trace ", 0), 0u) << text.out;
  EXPECT_NE(text.out.find("sqlite"), std::string::npos);
  EXPECT_NE(text.out.find("for 5% of the footprint"), std::string::npos) << text.out;
  EXPECT_EQ(run("memtier traces nowhere").code, 1);
}

TEST_F(Cli, NamesATracePairByPrefixOrShippedName) {
  const std::string p = synth("phased", 4000, 1, "32MiB");
  const Result pair =
      run("run memtier trace=" + p + ".ddr.csv," + p + ".hbm.csv --policy lru --json");
  const Result prefix = run("run memtier trace=" + p + " --policy lru --json");
  ASSERT_EQ(pair.code, 0) << pair.err;
  ASSERT_EQ(prefix.code, 0) << prefix.err;
  EXPECT_EQ(nlohmann::json::parse(prefix.out)["total_ms"],
            nlohmann::json::parse(pair.out)["total_ms"]);
  const Result shipped =
      run("run memtier trace=xz --policy lru --config '{\"episode_length\": 20}' --json");
  ASSERT_EQ(shipped.code, 0) << shipped.err;
  EXPECT_EQ(nlohmann::json::parse(shipped.out)["windows"], 20);

  const Result typo = run("run memtier trace=lamps --policy lru");
  EXPECT_EQ(typo.code, 1);
  EXPECT_EQ(typo.err.rfind("sysgym: UnknownNameError: unknown trace 'lamps': no file 'lamps', and "
                           "no lamps.ddr.* + lamps.hbm.* pair, and no shipped pair of that name",
                           0),
            0u)
      << typo.err;
  EXPECT_NE(typo.err.find("did you mean 'lammps'?"), std::string::npos) << typo.err;
  const Result side = run("run memtier trace=" + p + ".ddr.csv,nope.csv --policy lru");
  EXPECT_EQ(side.code, 1);
  EXPECT_EQ(side.err, "sysgym: UnknownNameError: trace '" + p + ".ddr.csv,nope.csv': no file " +
                          "'nope.csv'\n");
  fs::remove(p + ".hbm.csv");
  const Result half = run("run memtier trace=" + p + " --policy lru");
  EXPECT_EQ(half.code, 1);
  EXPECT_NE(half.err.find("but no HBM trace beside it"), std::string::npos) << half.err;
}

TEST_F(Cli, RunErrorsNameTheProblem) {
  const Result unknown = run("run memtier trace=synth:phased:2000 --policy lfu");
  EXPECT_EQ(unknown.code, 1);
  EXPECT_EQ(unknown.err.rfind(
                "sysgym: UnknownNameError: unknown policy 'lfu' (did you mean 'lfu-hemem'?)", 0),
            0u)
      << unknown.err;
  const Result key =
      run("run memtier trace=synth:phased:2000 --policy lru --config '{\"bins\": 0}'");
  EXPECT_EQ(key.code, 1);
  EXPECT_EQ(
      key.err,
      "sysgym: ConfigError: memtier-v0 config: 'bins' must be an integer in [1, 65536], got 0\n");
  const Result json = run("run memtier trace=synth:phased:2000 --policy lru --config '{bins'");
  EXPECT_EQ(json.code, 1);
  EXPECT_EQ(json.err.rfind("sysgym: ConfigError: --config: not valid JSON", 0), 0u) << json.err;
  const Result single = run("run memtier trace=" + synth("random", 1000) + ".ddr.csv --policy lru");
  EXPECT_EQ(single.code, 1);
  EXPECT_NE(single.err.find("a single trace cannot drive the env"), std::string::npos)
      << single.err;
}

TEST_F(Cli, DescribeShowsSpacesLayoutAndPolicies) {
  const Result r =
      run("describe memtier --config '{\"bins\": 8, \"action_mode\": \"discrete\"}' --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["id"], "memtier-v0");
  EXPECT_EQ(j["action_space"], "Discrete(17)");
  EXPECT_EQ(j["observation_layout"].size(), 8u * 4 + 5);
  // 12 built-in, and "learned" (a policy file) and "constant" (an action) need parameters.
  ASSERT_EQ(j["policies"].size(), 14u);
  std::size_t needing_parameters = 0;
  for (const auto& p : j["policies"])
    needing_parameters += p["needs_parameters"].get<bool>() ? 1 : 0;
  EXPECT_EQ(needing_parameters, 2u);
  EXPECT_EQ(j["config"]["window_len"], nullptr);
  EXPECT_EQ(j["primary_metric"], "gap_closed");
  // The config fixes the action mode; without one, memtier's training hook picks each agent's
  // (the text below).
  EXPECT_EQ(j["agents"], nlohmann::json({"dqn"}));
  const Result text = run("describe memtier --config '{\"bins\": 8, \"history\": 1}'");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("layout: hist[0..7] resident[0..7] hist_prev_1[0..7] free_capacity"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("agents that train on it: dqn ppo\n"), std::string::npos) << text.out;
  // The agents follow the action space: MultiBinary (tensorplace, memtier's bins) takes ppo only,
  // Discrete(n > 2) (looptune) dqn only, Discrete(2) (inline) both.
  const std::vector<std::pair<std::string, nlohmann::json>> expected = {
      {"tensorplace", {"ppo"}},
      {"looptune", {"dqn"}},
      {"inline", {"dqn", "ppo"}},
      {"memtier --set action_mode=bins", {"ppo"}}};
  for (const auto& [env, agents] : expected) {
    const Result d = run("describe " + env + " --json");
    ASSERT_EQ(d.code, 0) << d.err;
    EXPECT_EQ(nlohmann::json::parse(d.out)["agents"], agents) << env;
  }
}

TEST_F(Cli, SetTypesEachValueByTheEnvsSchema) {
  const Result r =
      run("describe memtier --set bins=16 --set hbm_capacity=10% --set random_start=true --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["config"]["bins"], 16);
  EXPECT_EQ(j["config"]["hbm_capacity"], "10%");
  EXPECT_EQ(j["config"]["random_start"], true);
  for (const auto& [key, value] : j["config"].items()) {
    bool declared = false;
    for (const auto& k : j["config_schema"])
      declared = declared || k["name"] == key;
    EXPECT_TRUE(declared) << key;
  }
  const Result typo = run("describe memtier --set bns=16");
  EXPECT_EQ(typo.code, 1);
  EXPECT_EQ(typo.err.rfind("sysgym: UnknownNameError: --set memtier-v0: unknown key 'bns' (did "
                           "you mean 'bins'?); valid: trace, window_mode,",
                           0),
            0u)
      << typo.err;
  const Result no_value = run("describe memtier --set bins");
  EXPECT_EQ(no_value.code, 1);
  EXPECT_EQ(no_value.err, "sysgym: ConfigError: --set: expected KEY=VALUE, got 'bins'\n");
  const Result range = run("describe memtier --set bins=0");
  EXPECT_EQ(range.err,
            "sysgym: ConfigError: memtier-v0 config: 'bins' must be an integer in [1, 65536], got "
            "0\n");
}

// `run|compare ENV KEY=VALUE...`: settings after ENV are --set, --config's keys under both.
TEST_F(Cli, RunAndCompareTakeAnEnvAndItsSettings) {
  const std::string p = synth("phased", 5000, 1, "32MiB");
  const Result config_run = run("run memtier --policy lru --config '{\"trace\": \"" + p +
                                "\", \"hbm_capacity\": \"10%\"}' --json");
  const Result settings_run =
      run("run memtier trace=" + p + " hbm_capacity=10% --policy lru --json");
  ASSERT_EQ(config_run.code, 0) << config_run.err;
  ASSERT_EQ(settings_run.code, 0) << settings_run.err;
  EXPECT_EQ(settings_run.out, config_run.out);
  const Result set_compare =
      run("compare memtier-v0 --set trace=" + p + " --set hbm_capacity=5% hbm_capacity=10% --json");
  const Result compare = run("compare memtier trace=" + p +
                             " --config '{\"hbm_capacity\": \"50%\"}' hbm_capacity=10% --json");
  ASSERT_EQ(set_compare.code, 0) << set_compare.err;
  ASSERT_EQ(compare.code, 0) << compare.err;
  EXPECT_EQ(set_compare.out, compare.out);  // the last setting wins over --set and --config
  const Result text = run("compare memtier trace=" + p + " hbm_capacity=10%");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("total_ms v"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Sorted best first by total_ms (v lower is better)"), std::string::npos)
      << text.out;

  const Result no_env = run("run --policy lru trace=" + p);
  EXPECT_EQ(no_env.code, 1);
  EXPECT_EQ(no_env.err, "sysgym: ConfigError: name an env first (`sysgym list` shows them)\n");
  const Result old_form = run("run --trace " + p + " --policy lru");
  EXPECT_EQ(old_form.code, 2) << old_form.err;  // the memtier flags are gone from run
  const Result env = run("run memtir trace=" + p + " --policy lru");
  EXPECT_EQ(env.code, 1);
  EXPECT_EQ(env.err.rfind("sysgym: UnknownNameError: unknown env 'memtir' (did you mean "
                          "'memtier'?)",
                          0),
            0u)
      << env.err;
  const Result key = run("compare memtier trace=" + p + " bns=16");
  EXPECT_EQ(key.code, 1);
  EXPECT_NE(key.err.find("unknown key 'bns' (did you mean 'bins'?)"), std::string::npos) << key.err;
}

// A learned policy runs on the env settings that shape its network's spaces (fixed_by_policy).
TEST_F(Cli, RunAdoptsALearnedPolicysEnvSettings) {
  const std::string file = std::string(SYSGYM_SHIPPED_DATA) + "/policies/memtier/dqn-dense.json";
  const Result r = run("run memtier --policy learned --policy-config " + file +
                       " trace=synth:phased:3000 episode_length=30 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["config"]["action_mode"], "discrete");
  EXPECT_EQ(j["config"]["bins"], 16);
  EXPECT_EQ(j["config"]["random_start"], false);  // a training setting, not the network's shape
  EXPECT_EQ(j["windows"], 30);
}

// A policy file is a contract: the settings that shape its network and those that say what it
// was trained to achieve are set wherever it runs, and a setting that contradicts one is an
// error naming both values, never a silent re-score (inline's instructions policy was scored on
// size in the playground).
TEST_F(Cli, ALearnedPolicysContractIsAppliedAndCannotBeContradicted) {
  const std::string shipped = std::string(SYSGYM_SHIPPED_DATA) + "/policies/";
  const std::string instructions = shipped + "inline/fyp-instructions.json";
  const Result adopted =
      run("run inline --policy learned --policy-config " + instructions + " --json");
  ASSERT_EQ(adopted.code, 0) << adopted.err;
  const nlohmann::json config = nlohmann::json::parse(adopted.out)["config"];
  EXPECT_EQ(config["objective"], "instructions");
  EXPECT_EQ(config["size_limit"], 1.05);
  // The report says what the policy was trained for.
  const nlohmann::json trained_for =
      nlohmann::json::parse(adopted.out)["policy_parameters"]["trained_for"];
  EXPECT_EQ(trained_for, nlohmann::json({{"baseline", "auto"},
                                         {"objective", "instructions"},
                                         {"size_limit", 1.05},
                                         {"size_weight", 0.5}}));
  const Result text = run("run inline --policy learned --policy-config " + instructions);
  EXPECT_NE(text.out.find("\ntrained for: baseline=auto objective=instructions size_limit=1.05 "
                          "size_weight=0.5\n"),
            std::string::npos)
      << text.out;
  const Result same = run("run inline objective=instructions --policy learned --policy-config " +
                          instructions + " --json");
  EXPECT_EQ(same.code, 0) << same.err;
  const Result rescored =
      run("run inline objective=size --policy learned --policy-config " + instructions);
  EXPECT_EQ(rescored.code, 1);
  EXPECT_NE(rescored.err.find("ConfigError: objective='size' contradicts the learned policy, "
                              "which was trained with objective='instructions' (baseline=auto, "
                              "objective=instructions, size_limit=1.05, size_weight=0.5)"),
            std::string::npos)
      << rescored.err;
  const Result estimate =
      run("inline estimate --policy learned --policy-config " + instructions + " size_limit=0");
  EXPECT_EQ(estimate.code, 1);
  EXPECT_NE(estimate.err.find("size_limit=0 contradicts"), std::string::npos) << estimate.err;

  const std::string dense = shipped + "memtier/dqn-dense.json";
  const Result shape =
      run("run memtier trace=synth:phased:3000 bins=8 --policy learned "
          "--policy-config " +
          dense);
  EXPECT_EQ(shape.code, 1);
  EXPECT_NE(shape.err.find("bins=8 contradicts the learned policy, which was trained with "
                           "bins=16"),
            std::string::npos)
      << shape.err;
  const Result varied = run("eval --policy " + dense + " trace=synth:phased:3000 --vary bins=16,8");
  EXPECT_EQ(varied.code, 1);
  EXPECT_NE(varied.err.find("bins=8 contradicts"), std::string::npos) << varied.err;
  const Result mixed =
      run("eval inline --policy " + instructions + " --policy " + shipped + "inline/fyp-size.json");
  EXPECT_EQ(mixed.code, 1);
  EXPECT_NE(mixed.err.find("evaluate them separately"), std::string::npos) << mixed.err;
}

TEST_F(Cli, ListAndCheckCoverEveryRegisteredEnv) {
  const Result list = run("list --json");
  ASSERT_EQ(list.code, 0) << list.err;
  const nlohmann::json ids = nlohmann::json::parse(list.out);
  ASSERT_FALSE(ids.empty());
  const Result all = run("check --all --json");
  ASSERT_EQ(all.code, 0) << all.err;
  const nlohmann::json report = nlohmann::json::parse(all.out);
  for (const auto& env : ids) {
    ASSERT_TRUE(report.contains(env["id"])) << env["id"];
    EXPECT_GE(report[env["id"].get<std::string>()].size(), 7u);
  }
  const Result unknown = run("check memtire");
  EXPECT_EQ(unknown.code, 1);
  EXPECT_EQ(unknown.err,
            "sysgym: UnknownNameError: unknown env 'memtire' (did you mean 'memtier'?); valid: "
            "inline-v0, looptune-v0, memtier-v0, tensorplace-v0\n");
  const Result neither = run("check");
  EXPECT_EQ(neither.code, 1);
  EXPECT_EQ(neither.err, "sysgym: ConfigError: give one env id, or --all\n");
  const Result bad = run("check memtier --config '{\"bins\": 0}'");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("'bins' must be an integer in [1, 65536], got 0"), std::string::npos);
}

// memtier's tools live under `sysgym memtier`; the old top-level names are aliases for now.
TEST_F(Cli, MemtierToolsAnswerUnderTheFamilyAndTheirOldNames) {
  ASSERT_EQ(run("memtier synth --pattern stream --samples 3000 -o " + path("a")).code, 0);
  ASSERT_EQ(run("synth --pattern stream --samples 3000 -o " + path("b")).code, 0);
  EXPECT_EQ(slurp(path("a.ddr.csv")), slurp(path("b.ddr.csv")));
  const Result family = run("memtier inspect " + path("a.ddr.csv") + " --json");
  const Result alias = run("inspect " + path("a.ddr.csv") + " --json");
  ASSERT_EQ(family.code, 0) << family.err;
  EXPECT_EQ(family.out, alias.out);
  EXPECT_EQ(run("memtier").code, 2);  // a tool must be named
  const Result help = run("--help");
  EXPECT_NE(help.out.find("Aliases of `sysgym memtier ...`"), std::string::npos) << help.out;

  // Another family's file (a policy, a recorded episode) is named for what it is.
  const std::string policy = std::string(SYSGYM_SHIPPED_DATA) + "/policies/memtier/dqn-dense.json";
  const Result inspect = run("memtier inspect " + policy);
  EXPECT_EQ(inspect.code, 1);
  EXPECT_EQ(inspect.err, "sysgym: TraceFormatError: " + policy +
                             ": a sysgym-policy file, not a trace (memtier reads MemAI CSV, `perf "
                             "script` output and sysgym binary traces)\n");
  const Result estimate = run("memtier estimate --input " + policy + " --hbm-range 0:1000");
  EXPECT_EQ(estimate.code, 1);
  EXPECT_NE(estimate.err.find("a sysgym-policy file, not a sysgym binary file"), std::string::npos)
      << estimate.err;
}

}  // namespace
}  // namespace sysgym::testing
