// tensorplace-v0: place the tensors of one DNN training iteration between fast and slow memory,
// kernel by kernel (AutoTM's synchronous setting).
//
// Description: one training iteration of a zoo model (or a graph file), kernel by kernel, with
//   fast and slow memory pools and the time model of platform.hpp (AutoTM: "AutoTM: Automatic
//   Tensor Movement in Heterogeneous Memory Systems using Integer Linear Programming", ASPLOS
//   2020, whose ILP, ilp.hpp, is the oracle). Tensors that live across iterations (parameters, io)
//   start in slow memory (config start: "slow"; or "fast-while-fits") and go back to where they
//   started after the last kernel, so the next iteration starts as this one did.
// Observation (Box(0, 1), float32; the entity view: `slots` operands x 8 channels, then 3
//   globals): per operand present, in_fast, size, output, newborn, next_use, dies, share; then
//   fast_used, progress, compute_bound.
// Action: MultiBinary(slots): for each operand, whether it is in fast memory from this kernel
//   until its next use (1) or not (0). A slow operand marked 1 is copied in before the kernel, a
//   fast one marked 0 is written back after it (free when its slow copy is clean), and a new
//   output is born where it is marked. When the marked operands do not fit, the env first evicts
//   the fast tensors this kernel does not use, those used last first, then leaves the marked
//   operands that still do not fit in slow memory (info: refused_bytes). With moves=none nothing
//   is copied in or written back: a tensor stays where it is born (AutoTM's static setting).
// Reward: -(move time + kernel time) / all-fast iteration time, so the return is minus the
//   iteration's slowdown against having all of memory fast.
// Episode end: terminated after the iteration's last kernel; never truncated.
// Config: tensorplace_config.hpp (every key, unit and default); with ilp_plan, summaries measure
//   the episode against the plan's iteration too.
// Version history: v0, the first version.
#pragma once

#include <memory>
#include <optional>

#include "base/data_store.hpp"
#include "env/env.hpp"
#include "env/policy.hpp"
#include "env/registry.hpp"
#include "tensorplace/machine.hpp"
#include "tensorplace/simulator.hpp"
#include "tensorplace/tensorplace_config.hpp"

namespace sysgym::tensorplace {

// A step in the plan's own terms (the `plan` policy), beside the per-operand marks: the moves of
// one kernel, executed as simulator.hpp executes a plan, so that an episode following a plan
// takes the plan's simulated time exactly.
struct KernelMoves final : Directive {
  // The pools of the tensors born at this kernel. At the first kernel these include the tensors
  // that live across iterations: a plan chooses where they start (and pays to return them there
  // after the last kernel); those it leaves out start as the config's `start` says.
  std::vector<std::pair<std::uint32_t, Pool>> births;
  std::vector<Move> moves;  // synchronous ones before this kernel, asynchronous ones during it
  std::unique_ptr<Directive> clone() const override;
  void record(nlohmann::json& step, const Directive* previous) const override;
};

class TensorplaceEnv : public Env {
 public:
  TensorplaceEnv(const nlohmann::json& config, const DataSource& data);

  nlohmann::json config() const override { return config_.resolved; }
  nlohmann::json facts() const override;
  std::vector<std::string> observation_layout() const override;
  nlohmann::json episode_summary() const override;
  std::string primary_metric() const override { return "gap_closed"; }
  Ranking ranking() const override { return {"iteration_ms", false}; }
  std::vector<std::string> report_columns() const override;
  std::optional<EntityLayout> entity_layout() const override;

  // What family policies read.
  const Graph& graph() const { return *config_.graph; }
  std::uint64_t fast_limit() const { return config_.fast_limit; }
  std::uint32_t kernel() const { return kernel_; }  // the kernel the next step runs
  // The tensors in the slots of the current kernel (at most `slots`, each once).
  const std::vector<std::uint32_t>& slot_tensors() const { return slot_tensors_; }
  const Machine& machine() const { return *machine_; }
  // The kernel after `k` that next uses t (kernels().size() when none).
  std::uint32_t next_use(std::uint32_t t, std::uint32_t k) const;

  bool read_directive(const nlohmann::json& step,
                      std::unique_ptr<Directive>& directive) const override;

 protected:
  void on_reset(Rng& rng, const nlohmann::json& options) override;
  StepOutcome on_step(std::span<const double> action) override;
  // KernelMoves (tensorplace_plan_step.cpp); InvalidActionError for a move the simulator would
  // refuse or fast memory over the limit.
  StepOutcome on_directive(const Directive& directive) override;

 private:
  explicit TensorplaceEnv(TensorplaceConfig config);
  std::vector<Pool> start_pools() const;
  void prepare_slots();
  void write_observation();
  // Frees fast memory for `needed` more bytes by writing back fast tensors that kernel k does
  // not use, the one used last first; the seconds it took.
  double evict_for(std::uint64_t needed, std::uint32_t k);
  // Ends the current kernel: frees its dying tensors, returns the persistent ones after the
  // last, adds up the episode and writes info, observation and reward.
  StepOutcome finish_kernel(double kernel_s, double move_s, std::uint64_t refused);

  TensorplaceConfig config_;
  double all_fast_s_ = 0;
  double all_slow_s_ = 0;
  std::unique_ptr<Machine> machine_;
  std::uint64_t starting_fast_ = 0;  // bytes of the tensors that start in fast memory
  std::uint32_t kernel_ = 0;
  std::vector<std::uint32_t> slot_tensors_;
  // Episode totals.
  double kernel_s_ = 0;
  double move_s_ = 0;
  std::uint64_t refused_ = 0;
  std::uint64_t evicted_ = 0;
};

// Registers tensorplace-v0 (graph files read from `data`).
void register_tensorplace(Registry& registry, const std::shared_ptr<const DataSource>& data);
// all-slow, all-fast, first-touch and next-use: tensorplace's heuristics.
void register_tensorplace_policies(PolicyRegistry& registry);

}  // namespace sysgym::tensorplace
