// sysgym inline extract and measure on tests/data/inline/tiny.c, with the machine's clang 14, opt
// and valgrind (the README's setup installs them).
#include "cli/cli_fixture.hpp"

namespace sysgym::testing {
namespace {

class InlineCli : public Cli {
 protected:
  // tiny.c extracted into the test directory, run with 2,000 elements.
  std::string extract() {
    fs::copy_file(fs::path(SYSGYM_TEST_DATA) / "inline" / "tiny.c", path("tiny.c"));
    const Result r = run("inline extract --source " + path("tiny.c") + " --run-args 2000 -o " +
                         path("tiny.json") + " --json");
    EXPECT_EQ(r.code, 0) << r.err;
    report_ = nlohmann::json::parse(r.out);
    return path("tiny.json");
  }
  nlohmann::json run_json(const std::string& args) {
    const Result r = run(args);
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
  }
  nlohmann::json measure(const std::string& args) {
    const Result r = run("inline measure --program " + path("tiny.json") + " --json " + args);
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  }
  nlohmann::json report_;
};

TEST_F(InlineCli, ExtractsSitesDecisionsAndReferenceMeasurements) {
  const nlohmann::json program = read_json(extract());
  EXPECT_EQ(report_["sites"], 8);
  EXPECT_EQ(report_["o2_inlined"], 6);
  EXPECT_EQ(program["kind"], "sysgym-inline-program");
  EXPECT_EQ(program["source_dir"], ".");
  const nlohmann::json& ref = program["reference"];
  // Inlining removes calls: -O2 runs fewer instructions than nothing inlined, -Oz is smaller.
  EXPECT_LT(ref["O2"]["instructions"].get<double>(), ref["never"]["instructions"].get<double>());
  EXPECT_LT(ref["Oz"]["text_bytes"].get<int>(), ref["O2"]["text_bytes"].get<int>());
  double loop_calls = 0;
  for (const nlohmann::json& s : program["sites"]) {
    if (s["id"] == "tiny.c|sum_squares:2:47|square" || s["id"] == "tiny.c|sum_squares:2:62|clamp")
      loop_calls += s["calls"].get<double>();
  }
  EXPECT_EQ(loop_calls, 50 * 2000);  // sum_squares runs 50 times over 2,000 elements
}

TEST_F(InlineCli, ReplayedDecisionsAreAppliedAndMeasured) {
  extract();
  const nlohmann::json own = measure("--decisions clang");
  const nlohmann::json o2 = measure("--decisions O2");
  EXPECT_EQ(o2["applied_share"], 1.0);
  EXPECT_EQ(o2["text_bytes"], own["text_bytes"]);  // clang's decisions, forced: the same code
  const nlohmann::json never = measure("--decisions never --no-run");
  EXPECT_EQ(never["text_bytes"], report_["reference"]["never"]["text_bytes"]);
  EXPECT_EQ(never["instructions"], 0);
  const nlohmann::json always = measure("--decisions always");
  EXPECT_EQ(always["inlined_applied"], 8);
  EXPECT_LT(always["instructions"].get<double>(),
            report_["reference"]["never"]["instructions"].get<double>());
  // A decisions file: only the hot call in the loop.
  std::ofstream(path("hot.json"))
      << R"({"kind": "sysgym-inline-decisions", "schema_version": 1, "program": "tiny",)"
      << R"( "inline": ["tiny.c|sum_squares:2:47|square"]})";
  const nlohmann::json hot = measure("--decisions " + path("hot.json"));
  EXPECT_EQ(hot["inlined_applied"], 1);
  EXPECT_LT(hot["instructions"].get<double>(),
            report_["reference"]["never"]["instructions"].get<double>());
}

// Bisect follows the half of the decisions that moves the count, and stops where the effect
// needs decisions from both halves: in tiny.c, sum_squares' loop is vectorized only when neither
// of its two calls is left, so inlining both saves far more than either alone. What it reports
// can be measured again with measure.
TEST_F(InlineCli, BisectNamesTheCallsBehindADifferenceAsMeasureMeasuresThem) {
  extract();
  const nlohmann::json always = measure("--decisions always");
  const nlohmann::json b = run_json("inline bisect --program " + path("tiny.json") +
                                    " --from never --to always --jobs 2 --json");
  EXPECT_EQ(b["groups_differing"], 8);
  EXPECT_EQ(b["from"]["instructions"], report_["reference"]["never"]["instructions"]);
  EXPECT_EQ(b["to"]["instructions"], always["instructions"]);
  EXPECT_EQ(b["to"]["applied_share"], 1.0);
  EXPECT_NE(b["stopped"].get<std::string>().find("not additive"), std::string::npos);
  ASSERT_EQ(b["left"].size(), 2u) << b.dump(2);
  nlohmann::json ids = nlohmann::json::array();
  for (const nlohmann::json& g : b["left"])
    ids.push_back(g["id"]);
  EXPECT_EQ(ids,
            nlohmann::json({"tiny.c|sum_squares:2:47|square", "tiny.c|sum_squares:2:62|clamp"}));
  const double from = b["from"]["instructions"].get<double>();
  const double together = b["left_effect"].get<double>();
  EXPECT_LT(together, 0.9 * (b["to"]["instructions"].get<double>() - from));
  for (const char* alone : {"first", "second"})
    EXPECT_GT(b["steps"].back()[alone].get<double>() - from, 0.25 * together);
  std::ofstream(path("loop.json")) << nlohmann::json{{"kind", "sysgym-inline-decisions"},
                                                     {"schema_version", 1},
                                                     {"program", "tiny"},
                                                     {"inline", ids}};
  const nlohmann::json loop = measure("--decisions " + path("loop.json"));
  EXPECT_EQ(loop["instructions"].get<double>() - from, together);
  // Text size alone (no run), from a calibration samples file's set.
  std::ofstream(path("samples.json"))
      << R"({"kind": "sysgym-inline-samples", "schema_version": 1, "samples": [)"
      << R"({"program": "tiny", "decisions": "11111111", "text_bytes": 1}]})";
  const nlohmann::json size =
      run_json("inline bisect --program " + path("tiny.json") + " --from never --to " +
               path("samples.json") + "#0 --metric size --json");
  EXPECT_EQ(size["to"]["text_bytes"], always["text_bytes"]);
  EXPECT_EQ(size["to"]["instructions"], 0);
  const Result missing = run("inline bisect --program " + path("tiny.json") +
                             " --from always --to " + path("none.json") + "#0");
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("cannot open"), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("none.json"), std::string::npos) << missing.err;
  const Result alike = run("inline bisect --program " + path("tiny.json") + " --from always --to " +
                           path("samples.json") + "#0");
  EXPECT_EQ(alike.code, 1);
  EXPECT_NE(alike.err.find("inline the same call sites; nothing to bisect"), std::string::npos)
      << alike.err;
}

// Replay forces whatever it is given, so a varargs body inlined reads its caller's arguments:
// such sites are marked when extracted and no decision set inlines them.
TEST_F(InlineCli, SitesClangNeverInlinesAreMarkedAndNeverForced) {
  fs::copy_file(fs::path(SYSGYM_TEST_DATA) / "inline" / "never.c", path("never.c"));
  const Result r = run("inline extract --source " + path("never.c") + " --run-args 50 -o " +
                       path("never.json") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json program = read_json(path("never.json"));
  std::map<std::string, std::string> why;  // callee -> reason
  for (const nlohmann::json& s : program["sites"]) {
    const std::string callee = program["functions"][s["callee"].get<std::size_t>()]["name"];
    why[callee] = s.value("never", "");
  }
  EXPECT_EQ(why, (std::map<std::string, std::string>{{"configure", "varargs"},
                                                     {"slow_add", "noinline"},
                                                     {"dispatch", "indirect branch"},
                                                     {"guarded", "setjmp"},
                                                     {"wide", "target features"},
                                                     {"plain", ""},
                                                     {"set_default", ""}}));
  EXPECT_EQ(nlohmann::json::parse(r.out)["sites_never_inlined"], 5);
  // "always" is every other site; a file naming them all keeps the five as calls, and the
  // program still runs (the varargs body inlined would read a pointer its caller never passed).
  const nlohmann::json always =
      run_json("inline measure --program " + path("never.json") + " --decisions always --json");
  EXPECT_EQ(always["inlined_requested"], 2);
  EXPECT_EQ(always["applied_share"], 1.0);
  nlohmann::json all = nlohmann::json::array();
  for (const nlohmann::json& s : program["sites"])
    all.push_back(s["id"]);
  std::ofstream(path("all.json")) << nlohmann::json{{"kind", "sysgym-inline-decisions"},
                                                    {"schema_version", 1},
                                                    {"program", "never"},
                                                    {"inline", all}};
  const nlohmann::json forced = run_json("inline measure --program " + path("never.json") +
                                         " --decisions " + path("all.json") + " --json");
  EXPECT_EQ(forced["never_inlined_requested"], 5);
  EXPECT_EQ(forced["instructions"], always["instructions"]);
  // Model mode agrees: the env decides only the two sites clang may inline.
  const nlohmann::json episode =
      run_json("run inline-v0 program=" + path("never.json") + " --policy always --json");
  EXPECT_EQ(episode["decided"], 2);
  EXPECT_EQ(episode["inlined"], 2);
}

TEST_F(InlineCli, AnnealsInModelModeAndMeasuresItsBestSet) {
  extract();
  const Result r =
      run("inline anneal --program " + path("tiny.json") +
          " --objective instructions --steps 200 --measure --json -o " + path("best.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["baseline"], "O2");
  EXPECT_LE(report["best_cost"].get<double>(), report["start_cost"].get<double>());
  EXPECT_EQ(report["best_real"]["inlined_applied"], report["best_inlined"]);
  // The best set is a decisions file measure takes.
  const nlohmann::json measured = measure("--decisions " + path("best.json"));
  EXPECT_EQ(measured["text_bytes"], report["best_real"]["text_bytes"]);
}

// FYP annealed over measured costs: --real compiles and measures every set it tries.
TEST_F(InlineCli, AnnealsInRealMode) {
  extract();
  const Result r = run("inline anneal --program " + path("tiny.json") +
                       " --real --steps 6 --json -o " + path("best.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["mode"], "real");
  EXPECT_DOUBLE_EQ(report["start_cost"].get<double>(), 1.0);
  EXPECT_LE(report["best_cost"].get<double>(), 1.0);
  // The best set's text at -Oz, measured on its own, is the start's times its cost.
  const nlohmann::json start = measure("--decisions Oz --opt-level Oz --no-run");
  const nlohmann::json best =
      measure("--decisions " + path("best.json") + " --opt-level Oz --no-run");
  EXPECT_DOUBLE_EQ(best["text_bytes"].get<double>() / start["text_bytes"].get<double>(),
                   report["best_cost"].get<double>());
}

TEST_F(InlineCli, TheBenchMeasuresEveryRowAgainstClangsDecisions) {
  extract();
  const Result r = run("inline bench --program " + path("tiny.json") + " --no-run --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json tables = nlohmann::json::parse(r.out);
  ASSERT_EQ(tables.size(), 1u);
  const nlohmann::json& rows = tables[0]["rows"];
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(tables[0]["opt_level"], "-Oz");
  EXPECT_EQ(rows[1]["policy"], "clang-Oz decisions");
  EXPECT_DOUBLE_EQ(rows[1]["text_vs_baseline"].get<double>(), 1.0);
  EXPECT_EQ(rows[1]["applied"], rows[1]["inlined"]);
  EXPECT_EQ(rows[2]["policy"], "never");
  EXPECT_EQ(rows[2]["inlined"], 0);
  EXPECT_TRUE(rows[0]["inlined"].is_null());  // clang's own inliner: nothing forced
  const Result bad = run("inline bench --program " + path("tiny.json") + " --policy-config " +
                         path("missing.json"));
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("missing.json"), std::string::npos) << bad.err;
}

// The shipped instructions policy in the model, on the three held-out programs: on LMDB it saves
// instructions against clang's -O2 decisions, and on none does it run more than those decisions
// or exceed the +5 % text it was trained under (a penalty would show in the score). Real mode's
// figures are the goal table's (docs/envs/inline.md).
TEST_F(InlineCli, TheShippedInstructionsPolicyKeepsItsSizeLimitOnEveryHeldOutProgram) {
  const std::string data = std::string(SYSGYM_SHIPPED_DATA);
  for (const char* program : {"lmdb", "lz4", "bzip2"}) {
    const Result r = run(std::string("run inline-v0 program=") + data + "/inline/" + program +
                         ".json objective=instructions size_limit=1.05 --policy learned "
                         "--policy-config " +
                         data + "/policies/inline/fyp-instructions.json --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json episode = nlohmann::json::parse(r.out);
    EXPECT_LT(episode["instructions_vs_O2"].get<double>(), 1 + 1e-6) << program;
    EXPECT_GT(episode["score"].get<double>(), -1e-6) << program;
    if (std::string(program) == "lmdb") {
      EXPECT_LT(episode["instructions_vs_O2"].get<double>(), 0.998);
    }
  }
}

// The shipped FYP size policy keeps LMDB (held out) smaller than clang's -Oz decisions in the
// model (0.998) and in real mode at -Oz (0.9955, the goal table), and not by inlining nothing.
TEST_F(InlineCli, TheShippedSizePolicyBeatsOzOnLmdbInTheModel) {
  const std::string data = std::string(SYSGYM_SHIPPED_DATA);
  const Result r = run("inline estimate program=" + data + "/inline/lmdb.json --policy learned " +
                       "--policy-config " + data + "/policies/inline/fyp-size.json --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json e = nlohmann::json::parse(r.out);
  EXPECT_LT(e["text_vs_Oz"].get<double>(), 0.999);
  EXPECT_GT(e["inlined"].get<int>(), 0);
}

// The shipped calibration samples (real-mode measurements of five programs): the default cost
// model ranks their text sizes and instruction counts as real mode does (lz4's instructions less
// well).
TEST_F(InlineCli, TheCostModelRanksTheShippedRealMeasurements) {
  const std::string data = std::string(SYSGYM_SHIPPED_DATA) + "/inline/";
  std::string programs;
  for (const char* p : {"kernels", "argon2", "expat", "lz4", "lmdb", "sqlite"})
    programs += " --program " + data + p + ".json";
  const Result r = run("inline calibrate" + programs + " --from-samples " + data +
                       "calibration.samples.json --json");
  ASSERT_EQ(r.code, 0) << r.err;
  // Kept by name: a range-for over a member of a temporary would read freed memory.
  const nlohmann::json report = nlohmann::json::parse(r.out);
  for (const nlohmann::json& p : report["model"]["programs"]) {
    // lz4's sets that inline most hot sites spread by 12 % in instructions through code
    // generation no per-decision model sees (README: the calibration table): 0.69 over 226 sets.
    // SQLite's random sets run within a few per cent of each other whatever they inline, and the
    // model ranks them worse still (0.33 over 214 sets).
    const double floor = p["program"] == "lz4" ? 0.65 : p["program"] == "sqlite" ? 0.25 : 0.85;
    EXPECT_GE(p["instructions_spearman"].get<double>(), floor) << p["program"];
    // What a search needs: of the pairs of sets real mode tells apart by more than 5 %, the model
    // orders at least nine in ten alike (lz4 0.92), SQLite's instructions 0.83 of the 1 % of its
    // pairs that differ that much.
    for (const std::string objective : {"size", "instructions"}) {
      const std::string key = objective + "_pairs_";
      const double least = p["program"] == "sqlite" && objective == "instructions" ? 0.8 : 0.9;
      if (p[key + "apart"].get<double>() > 0) {
        EXPECT_GE(p[key + "ordered"].get<double>(), least) << p["program"] << " " << objective;
      }
    }
    // The issue's goal, on every program (kernels: 0.14 before function_bytes and recursion).
    EXPECT_GE(p["size_spearman"].get<double>(), 0.9) << p["program"];
    EXPECT_GE(p["sets"].get<int>(), 16) << p["program"];
  }
}

// FYP's pipeline on two shipped programs: the labels the regression assigns beat the sets the
// annealer found, and the policy trained on them plays inline-v0 like any learned policy.
TEST_F(InlineCli, AssignedRewardsLabelSitesAndTrainAPolicy) {
  const std::string data = std::string(SYSGYM_SHIPPED_DATA) + "/inline/";
  const Result r = run("inline assign --program kernels --program " + data +
                       "argon2.json --restarts 4 --labels " + path("labels.json") + " -o " +
                       path("fyp.json") + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  for (const nlohmann::json& p : report["programs"]) {
    EXPECT_LE(p["labelled_cost"].get<double>(), p["best_cost"].get<double>()) << p["program"];
    EXPECT_LE(p["best_cost"].get<double>(), p["start_cost"].get<double>()) << p["program"];
    EXPECT_GT(p["r_squared"].get<double>(), 0.5) << p["program"];
  }
  EXPECT_GE(report["balanced_accuracy"].get<double>(), 0.7);
  const nlohmann::json labels = read_json(path("labels.json"));
  EXPECT_EQ(labels["kind"], "sysgym-inline-labels");
  EXPECT_EQ(labels["programs"][1]["program"], "argon2");
  EXPECT_FALSE(labels["programs"][1]["sites"].empty());
  const Result played = run("run inline-v0 program=" + data + "lmdb.json --policy learned " +
                            "--policy-config " + path("fyp.json") + " --json");
  ASSERT_EQ(played.code, 0) << played.err;
  EXPECT_EQ(nlohmann::json::parse(played.out)["decided"], 341);

  const Result bad = run("inline assign --program nothing -o " + path("x.json"));
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("unknown program 'nothing'"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(path("x.json")));
}

TEST_F(InlineCli, EstimatesAnyDecisionSetInModelMode) {
  const auto estimate = [&](const std::string& args) {
    const Result r = run("inline estimate " + args + " --json");
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(r.out);
  };
  const nlohmann::json oz = estimate("program=lmdb --decisions Oz");
  EXPECT_EQ(oz["score"], 0.0);  // the baseline of objective size
  EXPECT_EQ(oz["text_vs_Oz"], 1.0);
  // A policy's decisions are one episode's: clang-Oz's are the -Oz set's.
  EXPECT_EQ(estimate("program=lmdb --policy clang-Oz"), oz);
  const nlohmann::json threshold = estimate("program=lmdb --policy size-threshold");
  const nlohmann::json never = estimate("program=lmdb --decisions never");
  EXPECT_LT(threshold["instructions"].get<double>(), never["instructions"].get<double>());
  EXPECT_EQ(never["inlined"], 0);
  // The graph: every site once in the env's order.
  const nlohmann::json g = estimate("--graph")["graph"];
  EXPECT_EQ(g["order"].size(), g["sites"].size());
  const Result split = run("inline estimate program=held-out");
  EXPECT_EQ(split.code, 1);
  EXPECT_NE(split.err.find("'program' names a split"), std::string::npos) << split.err;
  const Result missing = run("inline estimate --decisions " + path("none.json"));
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("none.json"), std::string::npos) << missing.err;
}

// PPO acts in Discrete(2) as one Bernoulli variable: trained on the env directly (dense rewards,
// 20,000 steps, about 2 s), its decisions on kernels are smaller than clang's -Oz in model mode.
TEST_F(InlineCli, PpoTrainsOnTheEnvAndBeatsClangsOzDecisionsInModelMode) {
  const Result trained =
      run("train inline-v0 --agent ppo reward=dense --steps 20000 -o " + path("ppo.json"));
  ASSERT_EQ(trained.code, 0) << trained.err;
  const Result evaluated =
      run("eval inline-v0 --policy " + path("ppo.json") + " --baselines clang-Oz --json");
  ASSERT_EQ(evaluated.code, 0) << evaluated.err;
  const nlohmann::json rows = nlohmann::json::parse(evaluated.out)[0]["rows"];
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1]["policy"], "clang-Oz");
  EXPECT_EQ(rows[1]["score"], 0.0);
  EXPECT_GT(rows[0]["score"].get<double>(), 0.005) << rows.dump();
}

TEST_F(InlineCli, BadInputIsNamed) {
  Result r = run("inline extract --source " + path("missing.c") + " -o " + path("x.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no such file or folder"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("x.json")));
  std::ofstream(path("broken.c")) << "int main( { return 0; }\n";
  r = run("inline extract --source " + path("broken.c") + " -o " + path("x.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("compiling 'broken.c' to LLVM IR failed"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("x.json")));
  // Not C at all, under a name clang would take for a linker input: compiled as C all the same.
  std::ofstream(path("notes.txt")) << "hello\n";
  r = run("inline extract --source " + path("notes.txt") + " -o " + path("x.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("compiling 'notes.txt' to LLVM IR failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("notes.txt:1:1: error"), std::string::npos) << r.err;
  // FILE#N with N no set number: the number is named, not the whole text as a missing file.
  const std::string samples = std::string(SYSGYM_SHIPPED_DATA) + "/inline/calibration.samples.json";
  r = run("inline measure --program " + std::string(SYSGYM_SHIPPED_DATA) +
          "/inline/lz4.json --decisions '" + samples + "#-1'");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--decisions: the set number after '#': '-1' is not a whole number"),
            std::string::npos)
      << r.err;
  r = run("inline extract --source " + path("broken.c") + " --llvm-bin /nowhere -o x.json");
  EXPECT_NE(r.err.find("apt-get install clang-14 llvm-14"), std::string::npos) << r.err;

  extract();
  std::ofstream(path("bad.json"))
      << R"({"kind": "sysgym-inline-decisions", "schema_version": 1, "program": "tiny",)"
      << R"( "inline": ["tiny.c|main:6:62|square"]})";
  r = run("inline measure --program " + path("tiny.json") + " --decisions " + path("bad.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("did you mean 'tiny.c|main:6:61|square'"), std::string::npos) << r.err;
  // A program extracted by another clang: real mode refuses it, naming both versions.
  nlohmann::json other = read_json(path("tiny.json"));
  EXPECT_EQ(other["clang"], "14.0.6");
  other["clang"] = "17.0.1";
  std::ofstream(path("clang17.json")) << other.dump();
  r = run("inline measure --program " + path("clang17.json") + " --decisions never");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("'tiny' was extracted by clang 17.0.1, and the clang here"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("is 14.0.6"), std::string::npos) << r.err;
  // A program whose sources are not where it says (a shipped one before they are fetched).
  other["clang"] = "14.0.6";
  other["source_dir"] = "src/tiny";
  std::ofstream(path("elsewhere.json")) << other.dump();
  r = run("inline measure --program " + path("elsewhere.json") + " --decisions never");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("the sources of 'tiny' are not here: no '" + path("src/tiny/tiny.c")),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("regenerate.mjs --sources-only tiny"), std::string::npos) << r.err;
  r = run("inline measure --program " + path("bad.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("not a sysgym-inline-program file"), std::string::npos) << r.err;
  std::ofstream(path("fails.c")) << "int main(void) { return 3; }\n";
  r = run("inline extract --source " + path("fails.c") + " -o " + path("y.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("running the program under callgrind failed (exit 3)"), std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace sysgym::testing
