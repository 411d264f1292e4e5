// Hostile uses of the tool's outputs and messages (issue 15): an output that names an input, a
// device, a directory; two commands writing one pair at once; a full disk on standard output;
// a FIFO as input; terminal escapes and huge numbers in configs; outputs checked before work.
#include <sys/stat.h>

#include <future>
#include <thread>
#include <vector>

#include "cli/cli_fixture.hpp"

namespace sysgym::testing {
namespace {

TEST_F(Cli, AnOutputThatIsAnInputIsRefusedAndTheInputKept) {
  const std::string p = synth("stream", 2000);
  const std::string ddr = p + ".ddr.csv", hbm = p + ".hbm.csv";
  const std::string before = slurp(ddr);
  Result r = run("preprocess --ddr " + ddr + " --hbm " + hbm + " -o " + ddr);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("it is one of this command's inputs"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(ddr), before);

  // The same file under another name (a symlink) is the same input.
  fs::create_symlink(ddr, path("alias.csv"));
  r = run("preprocess --ddr " + ddr + " --hbm " + hbm + " -o " + path("alias.csv"));
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(slurp(ddr), before);

  const std::string pair = path("pair.bin");
  ASSERT_EQ(run("preprocess --ddr " + ddr + " --hbm " + hbm + " -o " + pair).code, 0);
  const std::string pair_before = slurp(pair);
  r = run("run memtier trace=" + pair + " --policy lru --record " + pair);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("refusing to write"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(pair), pair_before);
}

TEST_F(Cli, ADeviceOutputIsWrittenInPlaceAndADirectoryRefused) {
  const std::string p = synth("stream", 2000);
  const std::string pair = " --ddr " + p + ".ddr.csv --hbm " + p + ".hbm.csv";
  EXPECT_EQ(run("preprocess" + pair + " -o /dev/null").code, 0);
  struct stat info {};
  ASSERT_EQ(::stat("/dev/null", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode)) << "/dev/null was replaced";

  // A FIFO gets the bytes a reader on its other end sees.
  const std::string fifo = path("out.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto reader = std::async(std::launch::async, [&] { return slurp(fifo); });
  EXPECT_EQ(run("preprocess" + pair + " -o " + fifo).code, 0);
  EXPECT_GT(reader.get().size(), 100u);

  fs::create_directory(path("dir.bin"));
  const Result r = run("preprocess" + pair + " -o " + path("dir.bin"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("it is a directory"), std::string::npos) << r.err;
}

TEST_F(Cli, EveryOutputFlagIsCheckedBeforeAnyWork) {
  // A long run that ends in "cannot write" loses its result: every flag naming a file the
  // command writes is checked as the command line is read, before the command starts.
  const std::string missing = path("no-such-folder") + "/out";
  const std::vector<std::pair<std::string, std::string>> outputs = {
      {"train memtier trace=synth:phased:2000 --steps 100000000", "-o"},
      {"train memtier trace=synth:phased:2000 --steps 100000000 -o " + path("p.json"), "--curve"},
      {"run memtier trace=synth:phased:2000 --policy lru", "--record"},
      {"profile -- list", "--chrome-trace"},
      {"memtier preprocess --trace synth:phased:2000", "-o"},
      {"memtier synth --pattern phased", "-o"},
      {"memtier trace --period 4 -- /bin/true", "-o"},
      {"tensorplace graph --model resnet50", "-o"},
      {"tensorplace ilp --model resnet50", "--write-lp"},
      {"tensorplace ilp --model resnet50", "--write-plan"},
      {"looptune calibrate", "-o"},
      {"looptune calibrate", "--samples"},
      {"inline extract --source x.c", "-o"},
      {"inline calibrate", "--samples"},
      {"inline calibrate", "-o"},
      {"inline anneal", "-o"},
      {"inline assign", "--labels"},
      {"inline assign", "-o"},
  };
  for (const auto& [command, flag] : outputs) {
    // The flag first: profile and trace take what follows -- as the command to run.
    const std::size_t second = command.find(' ') + 1;
    const std::string head =
        command.substr(0, command[second] == '-' ? second - 1 : command.find(' ', second));
    const Result r = run(head + " " + flag + " " + missing + command.substr(head.size()));
    const std::string named = flag == "-o" ? "--output" : flag;
    EXPECT_EQ(r.code, 1) << command << " " << flag << ": " << r.err;
    EXPECT_EQ(r.err, "sysgym: IoError: " + named + ": cannot write '" + missing +
                         "': its folder '" + path("no-such-folder") + "' does not exist\n")
        << command << " " << flag;
  }
}

TEST_F(Cli, APairWithOneUnwritableMemberReplacesNeither) {
  const std::string prefix = path("set");
  std::ofstream(prefix + ".ddr.csv") << "the previous DDR file";
  fs::create_directory(prefix + ".hbm.csv");
  const Result r = run("synth --pattern phased --samples 1000 -o " + prefix);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(slurp(prefix + ".ddr.csv"), "the previous DDR file");
}

TEST_F(Cli, ConcurrentSynthsOfOnePrefixLeaveAMatchingPair) {
  const std::string prefix = path("race");
  for (int round = 0; round < 3; ++round) {
    std::vector<std::future<int>> runs;
    for (int seed = 1; seed <= 4; ++seed) {
      runs.push_back(std::async(std::launch::async, [&, seed] {
        return run("synth --pattern random --samples 60000 --seed " + std::to_string(seed) +
                   " -o " + prefix)
            .code;
      }));
    }
    for (auto& f : runs)
      EXPECT_EQ(f.get(), 0);
    const Result r = run("estimate --ddr " + prefix + ".ddr.csv --hbm " + prefix + ".hbm.csv");
    EXPECT_EQ(r.code, 0) << "round " << round << ": " << r.err;
  }
}

TEST_F(Cli, APairFromTwoRunsIsAnError) {
  const std::string a = synth("phased", 3000, 1);
  fs::rename(a + ".hbm.csv", path("one.hbm.csv"));
  synth("phased", 3000, 2);
  const Result r = run("estimate --ddr " + a + ".ddr.csv --hbm " + path("one.hbm.csv"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("were not written together"), std::string::npos) << r.err;
}

TEST_F(Cli, LostStandardOutputIsAnError) {
  const std::string p = synth("stream", 1000);
  const std::string command =
      std::string(SYSGYM_EXE) + " inspect --json " + p + ".ddr.csv >/dev/full 2>" + path("err.txt");
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_NE(slurp(path("err.txt")).find("cannot write standard output"), std::string::npos)
      << slurp(path("err.txt"));
}

TEST_F(Cli, AFifoOrDeviceInputIsRefusedWithoutWaiting) {
  const std::string fifo = path("in.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Result r = run("inspect " + fifo);  // no writer: opening it must not block
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("is not a regular file"), std::string::npos) << r.err;
  r = run("inspect /dev/zero");
  EXPECT_EQ(r.code, 1);
}

TEST_F(Cli, TerminalEscapesInAConfigAreShownEscaped) {
  const std::string config = path("config.json");
  std::ofstream(config) << R"({"trace": "\u001b]0;owned\u0007\u001b[2J\u0000tail"})";
  const Result r = run("run memtier --policy lru --config " + config);
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << "a raw escape reached the terminal";
  EXPECT_NE(r.err.find("\\x1b]0;owned\\x07\\x1b[2J\\x00tail"), std::string::npos) << r.err;
}

TEST_F(Cli, HugeNumbersAndHugeKeysAreNamedConfigErrors) {
  Result r = run(R"(run memtier trace=synth:phased --policy lru --config '{"bins": 1e400}')");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("ConfigError"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("out of range"), std::string::npos) << r.err;

  const std::string config = path("key.json");
  std::ofstream(config) << "{\"trace\": \"synth:phased\", \"" << std::string(20'000'000, 'k')
                        << "\": 1}";
  r = run("run memtier --policy lru --config " + config);
  EXPECT_EQ(r.code, 1);
  EXPECT_LT(r.err.size(), 2000u) << "the message echoes the whole key";
  EXPECT_NE(r.err.find("kkk..."), std::string::npos) << r.err.substr(0, 300);
}

// Shell-quoted, for the names below (which hold no single quote).
std::string q(const std::string& s) {
  return "'" + s + "'";
}

TEST_F(Cli, TextReportsShowTerminalEscapesInNamesAsText) {
  // A name from a file, a program or the command line that holds escape sequences (a window
  // title, a clear screen) is shown as \x1b... in every family's text report, never sent to the
  // terminal that reads the report.
  const std::string escapes = "\x1b]0;pwned\x07\x1b[2J";
  const std::string odd = "x" + escapes;
  const std::string p = synth("phased", 2000);
  fs::copy_file(p + ".ddr.csv", path(odd + ".csv"));
  // tensorplace: a zoo graph renamed; looptune: a problem named so; inline: a shipped program.
  ASSERT_EQ(run("tensorplace graph --model resnet50 --batch 2 -o " + path("g.json")).code, 0);
  nlohmann::json graph = read_json(path("g.json"));
  graph["model"] = odd;
  std::ofstream(path("graph.json")) << graph.dump();
  const nlohmann::json problem = {{"format", "sysgym-looptune-problem"},
                                  {"version", 1},
                                  {"name", odd},
                                  {"vars",
                                   {{{"name", "m"}, {"size", 16}},
                                    {{"name", "n"}, {"size", 16}},
                                    {{"name", "k"}, {"size", 16}}}},
                                  {"a", {{"name", "a"}, {"dims", {{"m"}, {"k"}}}}},
                                  {"b", {{"name", "b"}, {"dims", {{"k"}, {"n"}}}}},
                                  {"out", {{"name", "c"}, {"dims", {{"m"}, {"n"}}}}}};
  std::ofstream(path("problem.json")) << problem.dump();
  nlohmann::json program = read_json(std::string(SYSGYM_SHIPPED_DATA) + "/inline/lz4.json");
  program["name"] = odd;
  std::ofstream(path("program.json")) << program.dump();

  for (const std::string& command : {
           "memtier inspect " + q(path(odd + ".csv")),
           "memtier preprocess --trace " + p + " -o " + q(path(odd + ".bin")),
           "memtier synth --pattern phased --samples 1000 -o " + q(path(odd)),
           "tensorplace graph --input " + path("graph.json") + " -o " + q(path(odd + ".json")),
           "tensorplace ilp --input " + path("graph.json") + " --fast-memory 1:1 --time-limit 5",
           "tensorplace sweep --input " + path("graph.json") + " --ratios 1:1 --optimizers static",
           "looptune tune --problem " + path("problem.json") + " --search greedy1 --steps 2",
           "inline anneal --program " + path("program.json") + " --steps 5",
           "train memtier trace=synth:phased:2000 --steps 64 -o " + q(path(odd + ".policy.json")),
       }) {
    const Result r = run(command);
    EXPECT_EQ(r.code, 0) << command << ": " << r.err;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << command << ": " << r.out;
    EXPECT_EQ(r.out.find('\x07'), std::string::npos) << command;
    EXPECT_NE(r.out.find("x\\x1b]0;pwned\\x07\\x1b[2J"), std::string::npos)
        << command << ": " << r.out;
  }
}

}  // namespace
}  // namespace sysgym::testing
