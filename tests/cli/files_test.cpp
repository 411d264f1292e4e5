// What the tool writes is whole or not there: outputs go to a temporary file in the same
// directory and are renamed into place, so a command killed at any moment leaves the previous
// file intact; inputs are only read.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <chrono>
#include <thread>
#include <vector>

#include "cli/cli_fixture.hpp"

extern char** environ;

namespace sysgym::testing {
namespace {

// Starts the tool with `args`, its output thrown away; returns its pid.
pid_t spawn(const std::vector<std::string>& args) {
  std::vector<std::string> all = {SYSGYM_EXE};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  // Default dispositions: a test started from a background job inherits SIGINT ignored.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int s = 1; s < NSIG; ++s)
    sigaddset(&defaults, s);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  EXPECT_EQ(posix_spawn(&pid, SYSGYM_EXE, &actions, &attributes, argv.data(), environ), 0);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

TEST_F(Cli, APreprocessKilledAtAnyMomentLeavesThePreviousOutputWhole) {
  const std::string p = synth("phased", 400000);
  const std::string ddr = p + ".ddr.csv", hbm = p + ".hbm.csv";
  const std::string inputs_before = slurp(ddr) + slurp(hbm);
  const std::string out = path("pair.bin");
  const std::vector<std::string> args = {"preprocess", "--ddr",   ddr,  "--hbm", hbm,
                                         "--mode",     "aligned", "-o", out};
  ASSERT_EQ(run("preprocess --ddr " + ddr + " --hbm " + hbm + " --mode aligned -o " + out).code, 0);
  const std::string complete = slurp(out);
  const std::string previous = "the previous output, which must survive\n";

  int interrupted = 0;
  // Kill points spread over the whole run (growing delays: a sanitizer build runs much longer).
  for (int delay_ms = 0; delay_ms < 60000; delay_ms = delay_ms * 5 / 4 + 10) {
    std::ofstream(out, std::ios::binary) << previous;
    const pid_t pid = spawn(args);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    const std::string now = slurp(out);
    const bool finished = WIFEXITED(status);
    if (finished) {
      EXPECT_EQ(WEXITSTATUS(status), 0);
      EXPECT_TRUE(now == complete) << "a finished preprocess left a different file";
      break;
    }
    ++interrupted;
    EXPECT_TRUE(now == previous || now == complete)
        << "killed after " << delay_ms << " ms, the output holds " << now.size()
        << " bytes: neither the previous file nor the complete new one";
  }
  EXPECT_GE(interrupted, 3) << "the preprocess finished too fast to be interrupted";
  EXPECT_TRUE(slurp(ddr) + slurp(hbm) == inputs_before) << "an input file was modified";
}

std::vector<std::string> temporaries_in(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".tmp-") != std::string::npos) found.push_back(name);
  }
  return found;
}

// SIGKILL cannot be handled and leaves a .tmp- file; no signal whose default action ends the
// process may (Ctrl-C, kill, a closed terminal, Ctrl-\, a timer, a user signal, a file-size or
// CPU limit, a real-time signal). Each is sent the moment a temporary file appears, i.e. in the
// middle of writing it.
TEST_F(Cli, AnInterruptedCommandRemovesItsTemporaryFilesAndDiesOfTheSignal) {
  // Enough samples that writing them takes a while (under ASan everything does: 1.7 s for 0.6 M,
  // 7.7 s for 3 M, most of it before the write).
#if defined(SYSGYM_ASAN)
  const std::string samples = "600000";
#else
  const std::string samples = "3000000";
#endif
  const std::vector<std::string> args = {"synth", "--pattern", "random",   "--samples",
                                         samples, "-o",        path("big")};
  // One of each kind (one handler serves all).
  for (const int signal :
       {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM, SIGXFSZ, SIGPIPE, SIGRTMIN + 3}) {
    bool caught_writing = false;
    for (int attempt = 0; attempt < 5 && !caught_writing; ++attempt) {
      const pid_t pid = spawn(args);
      int status = 0;
      while (::waitpid(pid, &status, WNOHANG) == 0) {
        if (!temporaries_in(dir_).empty()) {
          caught_writing = true;
          ::kill(pid, signal);
          ::waitpid(pid, &status, 0);
          break;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
      if (!caught_writing) continue;  // finished between two looks: try again
      EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal)
          << "the tool did not die of signal " << signal;
      EXPECT_EQ(temporaries_in(dir_), std::vector<std::string>())
          << "signal " << signal << " during a write left a temporary file";
    }
    EXPECT_TRUE(caught_writing) << "never saw the command writing a temporary file";
  }
}

// Memory exhaustion is a sysgym error with a message, not an abort (skipped under ASan, which
// reserves more address space than the limit allows).
TEST_F(Cli, RunningOutOfMemoryIsAnErrorNotACrash) {
#if defined(SYSGYM_ASAN)
  GTEST_SKIP() << "AddressSanitizer cannot run under an address-space limit";
#else
  const std::string command = "ulimit -v 1000000; exec " + std::string(SYSGYM_EXE) +
                              " run memtier trace=synth:random:40000000 --policy lru 2>" +
                              path("err.txt") + " >/dev/null";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << "the tool did not exit normally (status " << status << ")";
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_EQ(slurp(path("err.txt")).rfind("sysgym: out of memory: ", 0), 0u)
      << slurp(path("err.txt"));
#endif
}

TEST_F(Cli, AFailingCommandLeavesThePreviousOutputWhole) {
  const std::string out = path("episode.json");
  std::ofstream(out) << "previous";
  const Result r = run("run memtier trace=synth:phased --policy lruu --record " + out);
  EXPECT_NE(r.code, 0);
  EXPECT_EQ(slurp(out), "previous");
  EXPECT_EQ(temporaries_in(dir_), std::vector<std::string>());
}

// A real file-size limit (ulimit -f), not a sent signal: the write past it raises SIGXFSZ.
TEST_F(Cli, AFileSizeLimitLeavesNoTemporaryFile) {
  const std::string command = "ulimit -f 200; exec " + std::string(SYSGYM_EXE) +
                              " synth --pattern random --samples 200000 -o " + path("big") +
                              " >/dev/null 2>&1";
  const int status = std::system(command.c_str());
  EXPECT_FALSE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the limit was not reached";
  EXPECT_EQ(temporaries_in(dir_), std::vector<std::string>());
  EXPECT_FALSE(fs::exists(path("big.ddr.csv")));
}

}  // namespace
}  // namespace sysgym::testing
