// looptune-v0: tune a loop nest's order and tiling with LoopTune's actions (actions.hpp).
//
// Description: a tensor computation (problems.hpp: matmul, conv3x3, a problem file or a
//   benchmark set drawn from per episode) starts from its untuned nest (one loop per variable, in
//   the problem's order) with the cursor on the outermost loop (LoopTune: "LoopTune: Optimizing
//   Tensor Computations with Reinforcement Learning", 2023, on loop_tool's LoopNest).
// Observation (Box(0, 1), float32): LoopTune's. For each of up to max_loops loops (outermost
//   first; absent loops are zeros) 20 channels, channel-major as the framework's entity view lays
//   entities out (not declared as one: the actions are not per loop, they act at the cursor): is
//   the cursor, is a loop (before the computation), log2 of its size / 16, log2(1 + its tail) /
//   16, and a 16-bucket histogram of log2 of the strides (in elements, bucket 0 for stride 0) with
//   which its steps walk the three tensors, weighted by how often the loop iterates (its trips
//   times those of the loops around it) as a share of all points; then 3 scalars: the episode's
//   progress, the GFLOPS now / peak and the problem's log10 FLOPs / 12.
// Action: Discrete(12), actions.hpp (cursor up/down, swap up/down, split by 2..32, merge, unroll,
//   vectorize). An action that cannot apply changes nothing and sets info `legal` to 0; info
//   `legal_mask` has bit a set when action a could apply now.
// Reward: (GFLOPS after - GFLOPS before) / peak GFLOPS, so the return is the gain over the
//   untuned nest as a share of the peak; GFLOPS come from the cost model (cost_model.hpp,
//   deterministic) or, with reward=measure, from running the nest (measure.hpp).
// Episode end: truncated after `episode_length` actions; never terminated.
// Config: looptune_config.hpp (every key, unit and default).
// Version history: v0, the first version.
#pragma once

#include <array>
#include <memory>
#include <optional>

#include "base/data_store.hpp"
#include "env/env.hpp"
#include "env/policy.hpp"
#include "env/registry.hpp"
#include "looptune/actions.hpp"
#include "looptune/looptune_config.hpp"
#include "looptune/measure.hpp"

namespace sysgym::looptune {

inline constexpr int kLoopChannels = 20;

class LooptuneEnv : public Env {
 public:
  LooptuneEnv(const nlohmann::json& config, const DataSource& data);

  nlohmann::json config() const override { return config_.resolved; }
  nlohmann::json facts() const override;
  std::vector<std::string> observation_layout() const override;
  nlohmann::json episode_summary() const override;
  std::string primary_metric() const override { return "best_speedup"; }
  std::vector<std::string> report_columns() const override;
  // The nest after each step, for front ends: "loops" holds max_loops rows of (var + 1, size,
  // tail, unroll, vectorize), 0 rows past the last loop; the context names the vars and tensors.
  Frame frame() const override;
  nlohmann::json frame_context() const override;

  // What family policies (searches) read.
  const Schedule& schedule() const { return *schedule_; }
  // The fastest nest the episode has reached by its reward (the first of equals; the untuned one
  // until a step beats it): what a tuner keeps, so that an episode never ends below its start.
  const LoopNest& best_nest() const { return *best_; }
  std::size_t max_loops() const { return config_.max_loops; }
  bool annotations() const { return config_.annotations; }
  const CostModel& cost_model() const { return config_.model; }
  // The problems episodes draw from (one, or a benchmark set).
  const std::vector<std::shared_ptr<const Problem>>& problems() const { return config_.problems; }
  std::int64_t steps_left() const { return config_.episode_length - steps_; }
  // The GFLOPS of `nest` as this env rewards them (model or measured).
  double gflops(const LoopNest& nest) const;
  double peak_gflops() const;
  // The measurements the env has taken (reward=measure), memoised by nest: a report that measures
  // the nests again through it gets the figures the episode was rewarded with, at no cost.
  Measurer& measurer() const { return measurer_; }
  // The schedule after action a (from the current schedule, or from `s`), or nullopt where it
  // cannot apply (the env's rules included).
  std::optional<Schedule> after(Action a) const { return after(*schedule_, a); }
  std::optional<Schedule> after(const Schedule& s, Action a) const;
  // What a policy with nothing left to change does: a cursor move, which leaves the nest as it is.
  Action idle_action() const { return after(Action::kDown) ? Action::kDown : Action::kUp; }

 protected:
  void on_reset(Rng& rng, const nlohmann::json& options) override;
  StepOutcome on_step(std::span<const double> action) override;

 private:
  explicit LooptuneEnv(LooptuneConfig config);
  void write_observation();
  void write_info(bool legal, int action);  // action -1 at reset

  LooptuneConfig config_;
  std::optional<Schedule> schedule_;
  std::optional<LoopNest> best_;
  std::int64_t best_step_ = 0;
  mutable Measurer measurer_;  // memoises: measuring again would give another figure
  mutable std::optional<double> peak_;
  mutable std::vector<std::uint32_t> loops_frame_;  // frame()'s, valid until the next step
  std::int64_t steps_ = 0;
  double start_gflops_ = 0;
  double gflops_ = 0;
  double best_gflops_ = 0;
  std::int64_t illegal_ = 0;
};

// Registers looptune-v0 (problem files read from `data`) and its searches.
void register_looptune(Registry& registry, const std::shared_ptr<const DataSource>& data);
void register_looptune_policies(PolicyRegistry& registry);

}  // namespace sysgym::looptune
