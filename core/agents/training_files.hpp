// What `sysgym train` reads, writes and prints besides the agent itself: the envs' configs, the
// training state of --checkpoint-every / --resume, the policy file, the learning curve and the
// progress lines. Built in core so the native tool and the npm package's bin train alike and
// read each other's files.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "agents/trainer.hpp"
#include "base/numbers.hpp"

namespace sysgym::agents {

// The ranges of train's numeric flags, in both shells.
inline constexpr IntegerRange kTrainStepsRange{1, std::uint64_t{1} << 40};
inline constexpr IntegerRange kTrainEnvsRange{1, 4096};
inline constexpr IntegerRange kCurveEveryRange{1, std::uint64_t{1} << 30};
inline constexpr IntegerRange kCheckpointEveryRange{0, std::uint64_t{1} << 40};
inline constexpr IntegerRange kTrainThreadsRange{1, 256};

// Env k trains on grid[k % grid.size()]: `count` envs (0: one per grid entry).
std::vector<nlohmann::json> training_configs(const std::vector<nlohmann::json>& grid,
                                             std::size_t count);

// A training state read back for --resume: the trainer's options, its state, and the --vary
// texts the run was started with.
struct ResumedTraining {
  TrainerOptions options;
  nlohmann::json state;
  std::vector<std::string> vary;
};
// Throws ConfigError naming `path` when the bytes are not a state written by training_state().
ResumedTraining read_training_state(std::span<const std::uint8_t> bytes, const std::string& path);
// Loads the state into a trainer made from its options (ConfigError naming `path`).
void resume_training(Trainer& trainer, const ResumedTraining& resumed, const std::string& path);
// The state to write beside the policy (CBOR): the trainer's, plus the run's --vary texts.
std::vector<std::uint8_t> training_state(const Trainer& trainer,
                                         const std::vector<std::string>& vary);

// The policy file's text, its training facts completed with the run's --vary texts, thread count
// and seconds.
std::string trained_policy_text(const Trainer& trainer, const std::vector<std::string>& vary,
                                std::size_t threads, double seconds);

// One progress line (no line end): steps done of `total`, rate, episodes, mean return, the
// env's primary metric (`metric`, "metric" when it declares none) and the last loss.
std::string training_progress_text(const std::string& agent, const CurvePoint& point,
                                   std::int64_t total, double steps_per_second,
                                   const std::string& metric);

// The learning curve as CSV: env_steps,episodes,mean_return,mean_<metric>,loss.
std::string curve_csv(const std::string& metric, const std::vector<CurvePoint>& curve);

// The two closing lines: what was trained, how fast, and which files were written (`curve` may
// be empty). `new_steps` are the steps of this run (a resumed run's earlier steps excluded).
std::string training_summary_text(const std::string& agent, const Trainer& trainer,
                                  std::int64_t new_steps, double seconds, const std::string& output,
                                  const std::string& curve);

}  // namespace sysgym::agents
