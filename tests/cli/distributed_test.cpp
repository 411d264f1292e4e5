// `sysgym train --distributed` as users run it: two ranks under mpirun on this machine
// (oversubscribed, as CI has two cores), and the flag in a build without MPI.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "base/error.hpp"
#include "cli/cli_fixture.hpp"
#include "distributed/collective.hpp"

namespace sysgym::testing {
namespace {

constexpr const char* kMpiEnvironment =
    "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
    "OMPI_MCA_btl_vader_single_copy_mechanism=none ASAN_OPTIONS=detect_leaks=0";

class Distributed : public Cli {
 protected:
  void SetUp() override {
#ifndef SYSGYM_TEST_MPI
    GTEST_SKIP() << "built without MPI (libopenmpi-dev)";
#endif
    Cli::SetUp();
  }

  // `mpirun -np RANKS sysgym ARGS`; root may run it (CI does), leaks at OpenMPI's exit are its
  // own, and shared memory copies without cross-process reads (which containers without
  // ptrace rights refuse).
  Result mpirun(int ranks, const std::string& args) const {
    const std::string command = std::string(kMpiEnvironment) + " mpirun --oversubscribe -np " +
                                std::to_string(ranks) + " " + SYSGYM_EXE + " " + args + " >" +
                                path("stdout.txt") + " 2>" + path("stderr.txt") + " </dev/null";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(path("stdout.txt")),
            slurp(path("stderr.txt"))};
  }

  // Two ranks started with different arguments (MPMD), under a time limit: a job that hangs
  // fails the test with exit 124 instead of stalling the suite.
  Result mpirun_apart(const std::string& rank0, const std::string& rank1) const {
    const std::string command = std::string(kMpiEnvironment) +
                                " timeout 120 mpirun --oversubscribe -np 1 " + SYSGYM_EXE + " " +
                                rank0 + " : -np 1 " + SYSGYM_EXE + " " + rank1 + " >" +
                                path("stdout.txt") + " 2>" + path("stderr.txt") + " </dev/null";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(path("stdout.txt")),
            slurp(path("stderr.txt"))};
  }

  std::string train_args(const std::string& output) const {
    return "train memtier trace=synth:phased:20000:5:32 bins=16 episode_length=32 --agent ppo "
           "--envs 2 --steps 4096 --agent-config '{\"rollout_steps\": 64, \"hidden\": [32]}' "
           "--distributed -o " +
           path(output);
  }
};

TEST_F(Distributed, TwoRanksTrainTheSameWeightsAndAgainForTheSameSeed) {
  const Result first = mpirun(2, train_args("a.json"));
  ASSERT_EQ(first.code, 0) << first.err;
  // Rank 0 alone reports; the run itself checked that both ranks ended with the same weights.
  EXPECT_EQ(first.out.find("wrote"), first.out.rfind("wrote")) << first.out;
  const nlohmann::json a = read_json(path("a.json"));
  EXPECT_EQ(a["training"]["ranks"], 2);
  EXPECT_EQ(a["training"]["env_steps"], 4096);  // every rank's steps
  EXPECT_EQ(a["training"]["episodes"], 128);    // 2 ranks x 2 envs x 1,024 steps / 32 per episode
  const Result second = mpirun(2, train_args("b.json"));
  ASSERT_EQ(second.code, 0) << second.err;
  EXPECT_EQ(a["network"], read_json(path("b.json"))["network"]);
  // And the ranks did learn apart from one process: their envs and exploration differ.
  const Result single =
      run(train_args("c.json").replace(train_args("c.json").find(" --distributed"), 14, ""));
  ASSERT_EQ(single.code, 0) << single.err;
  EXPECT_NE(a["network"], read_json(path("c.json"))["network"]);
}

TEST_F(Distributed, DqnTrainsApeXStyleReproducibly) {
  // Rank 0 learns from both ranks' experience and sends its weights every 8 updates.
  const std::string args =
      "train memtier trace=synth:phased:20000:5:32 bins=16 episode_length=32 --agent dqn "
      "--envs 2 --steps 2048 --agent-config '{\"hidden\": [32], \"learning_starts\": 64, "
      "\"broadcast_every\": 8}' --distributed -o ";
  const Result first = mpirun(2, args + path("e.json"));
  ASSERT_EQ(first.code, 0) << first.err;
  const nlohmann::json e = read_json(path("e.json"));
  EXPECT_EQ(e["agent"], "dqn");
  EXPECT_EQ(e["training"]["ranks"], 2);
  EXPECT_EQ(e["training"]["env_steps"], 2048);
  EXPECT_EQ(e["training"]["episodes"], 64);
  EXPECT_EQ(e["normalizer"]["count"], 2048);  // the learner saw every rank's transitions
  const Result second = mpirun(2, args + path("f.json"));
  ASSERT_EQ(second.code, 0) << second.err;
  EXPECT_EQ(e["network"], read_json(path("f.json"))["network"]);
}

TEST_F(Distributed, ARankThatDiesEndsTheJobAndItsCheckpointResumesOnAnotherRankCount) {
  // Two ranks train for long; once rank 0 has written a checkpoint, rank 1 is killed.
  const std::string out = path("long.json");
  const std::string script =
      "export " + std::string(kMpiEnvironment) +
      "\n"
      "(mpirun --oversubscribe -np 2 " +
      std::string(SYSGYM_EXE) +
      " train memtier trace=synth:phased:20000:5:32 bins=16 episode_length=32 --agent ppo "
      "--envs 2 --steps 100000000 --curve-every 1024 --checkpoint-every 2048 "
      "--agent-config '{\"rollout_steps\": 64, \"hidden\": [32]}' --distributed -o " +
      out + " >" + path("job.out") + " 2>" + path("job.err") + "; echo $? >" + path("job.code") +
      ") &\n"
      "i=0; while [ ! -f " +
      out +
      ".state ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i+1)); done\n"
      "for p in $(pgrep -f " +
      out +
      "); do\n"
      "  if tr '\\0' '\\n' </proc/$p/environ 2>/dev/null | grep -qx OMPI_COMM_WORLD_RANK=1; then\n"
      "    kill -9 $p; fi; done\n"
      "wait\n";
  std::ofstream(path("kill.sh")) << script;
  ASSERT_EQ(std::system(("sh " + path("kill.sh")).c_str()), 0);
  EXPECT_NE(std::stoi(slurp(path("job.code"))), 0);
  const std::string err = slurp(path("job.err"));
  EXPECT_NE(err.find("rank 1"), std::string::npos) << err;  // mpirun names the rank that died
  EXPECT_FALSE(fs::exists(out));                            // no final policy from a broken job
  // The last checkpoint is whole, and resumes on one rank (any count would do).
  const std::string bytes = slurp(out + ".state");  // CBOR
  const nlohmann::json state = nlohmann::json::from_cbor(bytes.begin(), bytes.end());
  const std::int64_t at = state["env_steps"].get<std::int64_t>();
  EXPECT_GE(at, 2048);
  const Result resumed =
      mpirun(1, "train --resume " + out + ".state --steps " + std::to_string(at + 2048) +
                    " --distributed -o " + path("resumed.json"));
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  const nlohmann::json policy = read_json(path("resumed.json"));
  EXPECT_EQ(policy["training"]["ranks"], 1);
  EXPECT_EQ(policy["training"]["env_steps"], at + 2048);
  EXPECT_GE(policy["training"]["episodes"].get<std::int64_t>(),
            state["episodes"].get<std::int64_t>());
}

TEST_F(Distributed, RanksStartedDifferentlyStopAtOnceNamingTheDifference) {
  const std::string flags = " --steps 2000 --envs 1 --distributed -o " + path("p.json");
  const struct {
    std::string rank0, rank1, said;
  } cases[] = {
      // Were a crash (malloc: corrupted top size) and two hangs before the ranks compared notes.
      {"trace=synth:phased:2000 bins=8 --agent ppo", "trace=synth:phased:2000 bins=64 --agent ppo",
       "rank 1 has env configs[0].bins = '64', rank 0 has '8'"},
      {"trace=synth:phased:2000 --agent ppo", "trace=nowhere --agent ppo",
       "rank 1 has env configs[0].trace = 'nowhere', rank 0 has 'synth:phased:2000'"},
      {"trace=synth:phased:2000 --agent ppo", "trace=synth:phased:2000 --agent dqn",
       "rank 1 has --agent = 'dqn', rank 0 has 'ppo'"},
  };
  for (const auto& c : cases) {
    const Result r =
        mpirun_apart("train memtier " + c.rank0 + flags, "train memtier " + c.rank1 + flags);
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.code, 124) << "the job hung: " << r.err;
    EXPECT_NE(r.err.find("sysgym: rank 0: ConfigError: the ranks were started with different "
                         "settings: " +
                         c.said),
              std::string::npos)
        << r.err;
  }
  EXPECT_FALSE(fs::exists(path("p.json")));
}

TEST_F(Distributed, AFailingRankPrintsItsErrorAndEndsTheJob) {
  // Every rank fails making its envs; each says so and the first to fail ends the job (before,
  // a rank finalised MPI on its way out and the others waited for it for ever).
  const std::string args =
      "train memtier trace=nowhere --agent ppo --steps 2000 --distributed -o " + path("p.json");
  const Result r = mpirun_apart(args, args);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.code, 124) << "the job hung: " << r.err;
  EXPECT_NE(r.err.find(": UnknownNameError: unknown trace 'nowhere'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("sysgym: rank "), std::string::npos) << r.err;
}

TEST(DistributedWithoutMpi, TheFlagSaysHowToEnableIt) {
  // This test binary links the native library without the tool's MPI factory, as a build
  // without libopenmpi-dev does.
  try {
    cli::open_collective();
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("install Debian's libopenmpi-dev and openmpi-bin"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace sysgym::testing
