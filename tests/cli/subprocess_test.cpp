// native/subprocess: a tool's lines as it prints them, its exit code, and a timeout that stops
// the tool and the processes it started.
#include "subprocess.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>

#include "base/error.hpp"

namespace sysgym::cli {
namespace {

TEST(Subprocess, HandsOverLinesAndTheExitCode) {
  ProcessSpec spec({"sh", "-c", "printf 'a\\nb'; echo oops >&2; exit 3"});
  std::vector<std::string> out;
  spec.on_stdout_line = [&](std::string_view l) { out.emplace_back(l); };
  const ProcessOutcome o = run_process(spec);
  EXPECT_EQ(o.exit_code, 3);
  EXPECT_EQ(out, (std::vector<std::string>{"a", "b"}));  // the last line needs no newline
  EXPECT_EQ(o.stderr_tail, "oops\n");
  try {
    run_checked(spec, "the tool");
    FAIL();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("the tool failed (exit 3)"), std::string::npos);
  }
  EXPECT_THROW(run_process(ProcessSpec({"/no/such/tool"})), IoError);
  // The tool is there, its working folder is not: the error names the folder.
  ProcessSpec elsewhere({"sh", "-c", "true"});
  elsewhere.cwd = "/no/such/folder";
  try {
    run_process(elsewhere);
    FAIL();
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot run 'sh' in '/no/such/folder': no such folder"),
              std::string::npos)
        << e.what();
  }
}

TEST(Subprocess, ATimeoutStopsTheToolAndItsChildren) {
  // The child sleep holds the pipe open: only stopping the whole group ends the run.
  ProcessSpec spec({"sh", "-c", "sleep 30 & sleep 30"});
  spec.timeout_seconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  const ProcessOutcome o = run_process(spec);
  EXPECT_TRUE(o.timed_out);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10);
  try {
    run_checked(spec, "sleeping");
    FAIL();
  } catch (const ToolTimeout& e) {  // callers tell a timeout from a failure by its type
    EXPECT_NE(std::string(e.what()).find("sleeping took longer than 0.5 s"), std::string::npos);
  }
  // A failure is an IoError, never a ToolTimeout.
  ProcessSpec fails({"sh", "-c", "exit 3"});
  try {
    run_checked(fails, "failing");
    FAIL();
  } catch (const ToolTimeout&) {
    FAIL() << "a failure taken for a timeout";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("failing failed (exit 3)"), std::string::npos);
  }
}

TEST(Subprocess, AToolEndedByASignalIsACrashNotAFailure) {
  // A program built with some inlining decisions can overflow its stack: calibration leaves
  // such a set out by this type, while an exit status > 128 stays an ordinary failure.
  ProcessSpec crashes({"sh", "-c", "kill -SEGV $$"});
  EXPECT_EQ(run_process(crashes).signal, SIGSEGV);
  try {
    run_checked(crashes, "running the program");
    FAIL();
  } catch (const ToolCrashed& e) {
    EXPECT_NE(std::string(e.what()).find("running the program crashed (signal 11, SIGSEGV)"),
              std::string::npos);
  }
  ProcessSpec exits({"sh", "-c", "exit 139"});
  EXPECT_EQ(run_process(exits).signal, 0);
  try {
    run_checked(exits, "exiting");
    FAIL();
  } catch (const ToolCrashed&) {
    FAIL() << "an exit status taken for a signal";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("exiting failed (exit 139)"), std::string::npos);
  }
}

}  // namespace
}  // namespace sysgym::cli
