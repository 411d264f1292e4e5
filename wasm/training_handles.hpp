// Training and evaluation for the npm package (its bin's `train` and `eval`, and the JS API's
// sysgym.train): the core's Trainer stepped in slices, since JS cannot be called back from a
// long C++ loop without blocking it; progress, checkpoints and files are the JS side's.
#pragma once

#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "agents/trainer.hpp"

namespace sysgym::wasm {

// `sysgym eval [--json]` as natively, "" on failure. `request_json`: {policies: [{path, text}],
// env, config (--config's text or ""), settings, vary, baselines, seed (decimal text)}.
std::string eval_report_text(const std::string& request_json, bool json);

// {flag: [min, max]} of train's numeric flags (--steps, --envs, ...), for the bin to check them
// before making a trainer, with the native ranges.
std::string train_flag_ranges_json();

class TrainerHandle {
 public:
  // nullptr on failure. `request_json`: {env, config, settings, vary, envs, agent, agent_config,
  // seed, curve_every}: texts as the command line gave them ("" for a flag not given), checked
  // with the native flags' ranges and messages.
  static TrainerHandle* make(const std::string& request_json);
  // A run continued from the bytes of an OUTPUT.state file (`path` names it in errors).
  static TrainerHandle* resume(const std::string& state_bytes, const std::string& path);

  // Trains to the next curve point or to `target` env steps (decimal text, 1 to 2^40): 1 when a
  // point was added, 0 when the target was reached first, -1 on failure.
  int advance(const std::string& target);
  double env_steps() const { return static_cast<double>(trainer_->env_steps()); }
  std::string agent() const { return agent_; }
  std::string point_json() const;  // the last curve point
  std::string progress_text(double total, double steps_per_second) const;
  std::string summary_text(double new_steps, double seconds, const std::string& output,
                           const std::string& curve) const;
  std::string policy_text(double seconds) const;  // the file `-o` names
  std::string checkpoint_text() const;            // OUTPUT.checkpoint: the policy so far
  emscripten::val state_view();                   // OUTPUT.state's bytes, until the next call
  std::string curve_csv() const;

 private:
  TrainerHandle(std::unique_ptr<agents::Trainer> trainer, std::string agent,
                std::vector<std::string> vary);
  std::unique_ptr<agents::Trainer> trainer_;
  std::string agent_;
  std::vector<std::string> vary_;
  std::vector<std::uint8_t> state_;
};

}  // namespace sysgym::wasm
