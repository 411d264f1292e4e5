// inline-v0: decide, call site by call site, whether clang inlines it (MLGO's protocol).
//
// Description: a real C program's call sites as clang 14 sees them (program.hpp, extracted by
//   `sysgym inline extract`), walked bottom-up (a function's sites before its callers'), one step
//   per site (MLGO: "MLGO: a Machine Learning Guided Compiler Optimizations Framework", 2021;
//   reward assignment after "Inlining ML with ML"). Decisions are scored by the cost model (model
//   mode, cost_model.hpp), calibrated against compiling them for real (real mode, native).
// Observation (Box(-1, 1), float32): the site's features (the inline-cost analysis' counters, its
//   dynamic calls, caller and callee sizes and shapes, all as log2(1 + n) / 32 or shares, so that
//   programs of any size look alike) then the episode's progress, the share of sites inlined so
//   far and the bytes inlined so far as a share of the program. Every number is computed with
//   integer or correctly rounded arithmetic: native and WebAssembly builds see the same bits.
// Action: Discrete(2): 1 inlines the site, 0 keeps the call.
// Reward:
//   cost  = text / text of the baseline decisions (objective size), instructions / the
//           baseline's (instructions), or size_weight x the one + (1 - size_weight) x the other
//   reward=final: 1 - cost at the last step (0 before): > 0 beats the baseline
//   reward=dense: after each step the change of 1 - cost with undecided sites not inlined
// Episode end: terminated after the program's last site; never truncated.
// Config: inline_config.hpp (every key, unit and default).
// Version history: v0, the first version.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/data_store.hpp"
#include "env/env.hpp"
#include "env/policy.hpp"
#include "env/registry.hpp"
#include "inline/inline_config.hpp"

namespace sysgym::inlining {

class InlineEnv : public Env {
 public:
  InlineEnv(const nlohmann::json& config, const DataSource& data);

  nlohmann::json config() const override { return config_.resolved; }
  nlohmann::json facts() const override;
  std::vector<std::string> observation_layout() const override;
  nlohmann::json episode_summary() const override;
  std::string primary_metric() const override { return "score"; }
  std::vector<std::string> report_columns() const override;
  // The episode's program (a split draws one per reset): {program, sites, functions}.
  nlohmann::json frame_context() const override;

  // What family policies read: the program of the episode and the site the next step decides.
  const Program& program() const { return loaded_->program; }
  // Its cost model's view (bottom-up order, estimates), shared by every env on the program.
  const ProgramModel& model() const { return loaded_->model; }
  const CallSite& current_site() const;
  // Its index in program().sites.
  std::size_t current_site_index() const;
  const Decisions& decisions() const { return decisions_; }
  // The score's cost of any decision set of the episode's program (lower is better; the
  // baseline's is 1): what the family's tools (anneal, assign) optimise, as the env rewards it.
  double cost(const Decisions& d) const;
  // What the model says of any decision set of the episode's program: score (1 - cost),
  // text_bytes, instructions, text_vs_Oz, instructions_vs_O2 and the sites inlined.
  nlohmann::json assess(const Decisions& d) const;
  // The decisions the cost is relative to (clang's -Oz or -O2, or never).
  const std::string& baseline() const { return config_.baseline; }

 protected:
  void on_reset(Rng& rng, const nlohmann::json& options) override;
  StepOutcome on_step(std::span<const double> action) override;

 private:
  explicit InlineEnv(InlineConfig config);
  void write_observation();
  void write_info(int action);
  // The episode's length: the sites clang may inline.
  std::size_t to_decide() const { return loaded_->model.bottom_up_sites().size(); }

  InlineConfig config_;
  std::shared_ptr<const LoadedProgram> loaded_;
  Estimate baseline_;
  Estimate o2_, oz_;  // clang's decisions, for the summary
  std::size_t step_ = 0;
  Decisions decisions_;
  double score_ = 0;  // 1 - cost after the last step (dense: after each)
  double inlined_bytes_ = 0;
  std::size_t inlined_ = 0;
};

void register_inline(Registry& registry, const std::shared_ptr<const DataSource>& data);
void register_inline_policies(PolicyRegistry& registry);

}  // namespace sysgym::inlining
