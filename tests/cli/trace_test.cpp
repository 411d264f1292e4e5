// `sysgym memtier trace` on real programs run under valgrind: captures, phase markers, failures.
#include <chrono>
#include <csignal>

#include "cli/cli_fixture.hpp"

namespace sysgym::testing {
namespace {

TEST_F(Cli, TraceCapturesARealProgramEndToEnd) {
  const std::string prefix = path("ls");
  const Result r = run("trace --period 4 --llc-size 64KiB --mixed 0x0:0x1000000000 --json -o " +
                       prefix + " -- /bin/ls /");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out.substr(r.out.find('{')));
  EXPECT_GT(j["instructions"].get<double>(), 100000);
  EXPECT_EQ(j["skipped_instructions"], 0);
  EXPECT_EQ(j["phases"].size(), 1u);
  // The report puts the estimator's prediction next to the modeled mixed run.
  ASSERT_EQ(j["mixed"].size(), 1u);
  EXPECT_LT(j["mixed"][0]["relative_error"].get<double>(), 0.05);
  EXPECT_GT(j["samples"].get<int>(), 100);
  EXPECT_LT(j["hbm_ms"].get<double>(), j["ddr_ms"].get<double>());
  // The pair estimates like any trace; the modeled mixed run is consistent with the estimate.
  const Result e = run("estimate --ddr " + prefix + ".ddr.bin --hbm " + prefix +
                       ".hbm.bin --mode aligned --hbm-range " + "0x0:0x1000000000 --measured " +
                       prefix + ".mixed-0.bin --json");
  ASSERT_EQ(e.code, 0) << e.err;
  const nlohmann::json estimate = nlohmann::json::parse(e.out);
  EXPECT_NEAR(estimate["ddr_ms"].get<double>(), j["ddr_ms"].get<double>(), 1e-9);
  EXPECT_LT(estimate["error"].get<double>(), 0.05);
}

// A shell script as the traced program: dash runs `echo` and the loops itself, so the markers
// come from the traced process. Each loop is about 2 M instructions.
std::string script(const std::string& say) {
  const std::string loop = "while [ $i -lt $((i0+150)) ]; do i=$((i+1)); done; i0=$i; ";
  return "sh -c 'i=0; i0=0; " + loop + say + "one; " + loop + say + "two; " + loop + say +
         "stop; " + loop + "'";
}

TEST_F(Cli, TracePhasesFollowMarkersInTheProgramsOutput) {
  const std::string cache = "trace --period 1 --llc-size 4KiB --llc-ways 4 --json ";
  const Result all = run(cache + "--phase-marker '^phase (\\w+)' -o " + path("all") + " -- " +
                         script("echo phase "));
  ASSERT_EQ(all.code, 0) << all.err;
  const nlohmann::json a = nlohmann::json::parse(all.out);
  ASSERT_EQ(a["phases"].size(), 4u);  // start, one, two, stop
  EXPECT_EQ(a["phases"][1]["name"], "one");
  EXPECT_EQ(a["phases"][2]["id"], 2);
  // The program's output goes to stderr so that stdout holds only the report.
  EXPECT_NE(all.err.find("phase two"), std::string::npos);

  const Result kept =
      run(cache + "--phase-marker '^phase (\\w+)' --keep-phases '^t' " +
          "--stop-marker '^phase stop' -o " + path("kept") + " -- " + script("echo phase "));
  ASSERT_EQ(kept.code, 0) << kept.err;
  const nlohmann::json k = nlohmann::json::parse(kept.out);
  EXPECT_TRUE(k["stopped_at_marker"].get<bool>());
  ASSERT_EQ(k["phases"].size(), 3u);  // start, one, two: the program ended at "phase stop"
  EXPECT_FALSE(k["phases"][0]["kept"].get<bool>());
  EXPECT_FALSE(k["phases"][1]["kept"].get<bool>());
  EXPECT_EQ(k["phases"][2]["id"], 0);
  // Only phase two counts: its instructions and samples are the run's.
  EXPECT_EQ(k["instructions"], k["phases"][2]["instructions"]);
  EXPECT_EQ(k["samples"], k["phases"][2]["samples"]);
  EXPECT_GT(k["skipped_instructions"].get<double>(), 2e6);
  const double share = k["instructions"].get<double>() / a["instructions"].get<double>();
  EXPECT_GT(share, 0.15);
  EXPECT_LT(share, 0.35);
  const Result inspect = run("inspect --json " + path("kept") + ".ddr.bin");
  ASSERT_EQ(inspect.code, 0) << inspect.err;
  EXPECT_EQ(nlohmann::json::parse(inspect.out)["phases"], 1);
}

TEST_F(Cli, TraceReadsMarkersFromAFileTheProgramWritesAndKeepsIt) {
  const std::string file = path("out.txt");
  const std::string args = "trace --period 1 --llc-size 4KiB --llc-ways 4 --json --marker-file " +
                           file + " --phase-marker '^phase (\\w+)' -o " + path("f") + " -- " +
                           script("echo phase >>" + file + " ");
  const Result r = run(args);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["phases"].size(), 4u);
  EXPECT_EQ(j["phases"][2]["name"], "two");
  EXPECT_EQ(slurp(file), "phase one\nphase two\nphase stop\n");
  // The program's file is never overwritten: an existing one stops the capture before it starts.
  const Result again = run(args);
  EXPECT_EQ(again.code, 1);
  EXPECT_EQ(again.err, "sysgym: IoError: marker file '" + file +
                           "' already exists: it becomes a pipe while the program runs, so move "
                           "the old one away first\n");
  EXPECT_EQ(slurp(file), "phase one\nphase two\nphase stop\n");
}

TEST_F(Cli, TraceMarkerOptionsAreChecked) {
  EXPECT_EQ(run("trace --phase-marker '(' -o " + path("x") + " -- /bin/true").err.substr(0, 63),
            "sysgym: ConfigError: --phase-marker '(' is not a valid regular ");
  EXPECT_EQ(run("trace --keep-phases a -o " + path("x") + " -- /bin/true").err,
            "sysgym: ConfigError: --keep-phases needs --phase-marker to name the phases\n");
  EXPECT_EQ(run("trace --marker-file f -o " + path("x") + " -- /bin/true").err,
            "sysgym: ConfigError: --marker-file needs --phase-marker or --stop-marker\n");
  EXPECT_EQ(
      run("trace --phase-marker a --phase-instructions 10 -o " + path("x") + " -- /bin/true").err,
      "sysgym: ConfigError: phases come either every N instructions or from markers, not "
      "both\n");
}

// std::regex recursed once per character: '.*' on a 300 KB line overflowed the stack and the
// capture was lost. RE2 matches in linear time without recursion.
TEST_F(Cli, TraceMarkersSurviveHugeOutputLines) {
  const std::string program =
      "sh -c 'head -c 300000 /dev/zero | tr \"\\0\" a; echo; head -c 20000 /dev/zero | tr "
      "\"\\0\" a; echo c'";
  for (const char* pattern : {"'.*'", "'(a|b)*c'", "'^(a+)+$'"}) {
    const Result r = run("trace --period 64 --phase-marker " + std::string(pattern) + " -o " +
                         path("huge") + " --json -- " + program);
    EXPECT_EQ(r.code, 0) << pattern << ": " << r.err.substr(0, 300);
  }
}

// `sleep 40 &` keeps the pipes open for 40 s; the capture ends with the traced shell, and says
// which process it left behind, since a caller reading the output it holds would wait for it.
TEST_F(Cli, TraceEndsWhenTheTracedProcessExitsNotItsBackgroundChildrenAndNamesThem) {
  const auto start = std::chrono::steady_clock::now();
  const Result r = run("trace -o " + path("bg") + " -- sh -c 'sleep 40 & echo hi'");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_LT(seconds, 30.0) << "the capture waited for the background child";
  EXPECT_TRUE(fs::exists(path("bg.ddr.bin")));
  const std::string said = "leaving 1 process it started running in the background, untraced: ";
  const std::size_t at = r.err.find(said);
  ASSERT_NE(at, std::string::npos) << r.err;
  const long pid = std::stol(r.err.substr(at + said.size()));
  EXPECT_EQ(::kill(static_cast<pid_t>(pid), SIGTERM), 0) << "no process " << pid;
  const Result alone = run("trace -o " + path("alone") + " -- sh -c 'echo hi'");
  EXPECT_EQ(alone.err.find("background"), std::string::npos) << alone.err;
}

// Caps end a long capture early as a complete pair, and a capture too sparse to learn from says
// so: a shell loop of about 20 M instructions, capped at 3 M, then at 40 samples.
TEST_F(Cli, TraceStopsAtACapAndWarnsOfASparseCapture) {
  const std::string loop = " -- sh -c 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done'";
  const Result r = run("trace --max-instructions 3000000 --json -o " + path("cap") + loop);
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["instructions"], 3000000);
  EXPECT_EQ(j["stopped_at_cap"], true);
  EXPECT_EQ(j["stopped_at_marker"], false);
  ASSERT_FALSE(j["warnings"].empty());
  EXPECT_EQ(j["warnings"][0].get<std::string>().rfind("only ", 0), 0u) << j["warnings"];
  EXPECT_NE(r.err.find("sysgym: warning: only "), std::string::npos) << r.err;
  EXPECT_EQ(run("inspect " + path("cap") + ".ddr.bin").code, 0);  // the pair was written whole

  const Result s = run("trace --max-samples 40 --period 1 --json -o " + path("few") + loop);
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(nlohmann::json::parse(s.out)["samples"], 40);
}

TEST_F(Cli, TraceReportsAFailingProgramAndWritesNothing) {
  const Result r = run("trace -o " + path("false") + " -- /bin/false");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err,
            "sysgym: IoError: the traced program '/bin/false' exited with status 1 (or valgrind "
            "could not run "
            "it); nothing was written\n");
  EXPECT_FALSE(fs::exists(path("false.ddr.bin")));
  const Result missing =
      run("trace --valgrind /nonexistent/valgrind -o " + path("x") + " -- /bin/true");
  EXPECT_EQ(missing.code, 1);
  EXPECT_EQ(missing.err,
            "sysgym: IoError: cannot run '/nonexistent/valgrind': No such file or directory "
            "(install valgrind)\n");
}

TEST_F(Cli, ShippedRealTracesMatchTheirCaptureRecord) {
  const std::string dir = std::string(SYSGYM_SHIPPED_DATA) + "/real";
  const nlohmann::json manifest = nlohmann::json::parse(slurp(dir + "/manifest.json"));
  const nlohmann::json captured = nlohmann::json::parse(slurp(dir + "/captured.json"));
  for (const auto& trace : manifest["traces"]) {
    const std::string name = trace["name"].get<std::string>();
    ASSERT_TRUE(captured.contains(name)) << name << " is in the manifest but was not captured";
    const Result r = run("estimate --ddr " + dir + "/" + name + ".ddr.bin --hbm " + dir + "/" +
                         name + ".hbm.bin --mode aligned --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json e = nlohmann::json::parse(r.out);
    EXPECT_NEAR(e["ddr_ms"].get<double>(), captured[name]["ddr_ms"].get<double>(), 1e-9) << name;
    EXPECT_NEAR(e["hbm_ms"].get<double>(), captured[name]["hbm_ms"].get<double>(), 1e-9) << name;
    EXPECT_EQ(e["samples"].get<std::uint64_t>(), captured[name]["samples"].get<std::uint64_t>())
        << name;
  }
}

}  // namespace
}  // namespace sysgym::testing
