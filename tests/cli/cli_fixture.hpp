// The fixture of the CLI tests: runs the built `sysgym` executable in a fresh directory as a user
// would, capturing exit code, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace sysgym::testing {

namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline nlohmann::json read_json(const fs::path& path) {
  return nlohmann::json::parse(slurp(path));
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("sysgym-cli-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));  // two test runs at once (two checkouts) never share one
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  Result run(const std::string& args) const {
    const fs::path out = dir_ / "stdout.txt";
    const fs::path err = dir_ / "stderr.txt";
    const std::string command = std::string(SYSGYM_EXE) + " " + args + " >" + out.string() + " 2>" +
                                err.string() + " </dev/null";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // A synthetic pair written as PREFIX.{ddr,hbm,mixed}.csv in the test directory.
  std::string synth(const std::string& pattern, int samples = 20000, int seed = 1,
                    const std::string& footprint = "256MiB") const {
    const std::string prefix = path(pattern);
    const Result r = run("synth --pattern " + pattern + " --samples " + std::to_string(samples) +
                         " --seed " + std::to_string(seed) + " --footprint " + footprint +
                         " --mixed 0x7f3a00000000:0x7f3a01000000 -o " + prefix);
    EXPECT_EQ(r.code, 0) << r.err;
    return prefix;
  }

  fs::path dir_;
};

}  // namespace sysgym::testing
