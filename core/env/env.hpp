// The environment contract: Gymnasium semantics in C++.
//
//   reset(seed, options) -> {observation, info}
//   step(action)         -> {observation, reward, terminated, truncated, info}
//
// Observations are float32 buffers owned by the env; the spans returned stay valid until the next
// reset() or step() of the same env. Info is structured: a fixed list of named numbers declared
// by the env (info_keys()) and filled on every reset and step, so stepping allocates nothing.
// Every action is checked against action_space() before the env sees it.
//
// Describe hooks (observation_layout, facts, episode_summary, primary_metric, frame) let generic
// code (the CLI, the trainer, the browser) present any env without knowing its family; each has a
// default, so a new env overrides only what it has to say.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/rng.hpp"
#include "env/entity_layout.hpp"
#include "env/frame.hpp"
#include "env/space.hpp"

namespace sysgym {

// A read-only view of an env's info values, aligned with its keys.
struct InfoView {
  const std::vector<std::string>* keys = nullptr;
  std::span<const double> values;

  // Throws UnknownNameError (with the valid keys) when `key` is not declared.
  double at(std::string_view key) const;
  nlohmann::json to_json() const;
};

struct ResetResult {
  std::span<const float> observation;
  InfoView info;
};

struct StepResult {
  std::span<const float> observation;
  double reward = 0.0;
  bool terminated = false;  // the task reached a terminal state (MDP end)
  bool truncated = false;   // the episode was cut short (time limit, window range end)
  InfoView info;
};

// A family's step beyond its action space, for policies that reason in the family's own terms
// (memtier: page-granular placements by baselines and oracles). The family's env applies it
// (Env::step_directive) and reads it back from recordings (Env::read_directive).
class Directive {
 public:
  virtual ~Directive() = default;
  virtual std::unique_ptr<Directive> clone() const = 0;
  // Adds this directive's keys to a recorded step. `previous` is the directive of the step
  // before when that step used one (a family may record a repeat compactly).
  virtual void record(nlohmann::json& step, const Directive* previous) const = 0;
};

class Env {
 public:
  virtual ~Env() = default;
  Env(const Env&) = delete;
  Env& operator=(const Env&) = delete;

  const std::string& id() const { return id_; }
  const Space& observation_space() const { return observation_space_; }
  const Space& action_space() const { return action_space_; }
  const std::vector<std::string>& info_keys() const { return info_keys_; }

  // A given seed reseeds the env's Rng; without one the Rng continues its stream (seed 0 before
  // the first seeded reset), so reset(s) followed by reset() is reproducible.
  ResetResult reset(std::optional<std::uint64_t> seed = std::nullopt,
                    const nlohmann::json& options = nlohmann::json::object());
  // Throws InvalidActionError for an action outside action_space(), ApiMisuseError before the
  // first reset or after the episode ended.
  StepResult step(std::span<const double> action);

  // Applies a family directive (see Directive); ApiMisuseError for an env without directives,
  // before the first reset or after the episode ended.
  StepResult step_directive(const Directive& directive);
  // Reads the directive of a recorded step into `directive`, which holds the previous step's
  // directive or null (after an action). Returns false when the step holds none of this env's
  // directives; throws TraceFormatError or nlohmann::json errors for a malformed one.
  virtual bool read_directive(const nlohmann::json& step,
                              std::unique_ptr<Directive>& directive) const;

  // The resolved configuration (every key with its effective value).
  virtual nlohmann::json config() const = 0;
  // The configuration as given (what a recording stores to remake the env).
  virtual nlohmann::json given_config() const { return config(); }
  // Facts derived from config and data (memtier: capacity in bytes, footprint, windows).
  virtual nlohmann::json facts() const { return nlohmann::json::object(); }
  // One name per observation element, e.g. "hist[3]"; default "obs[i]".
  virtual std::vector<std::string> observation_layout() const;
  // Totals of the episode so far, as a flat object of numbers.
  virtual nlohmann::json episode_summary() const { return nlohmann::json::object(); }
  // The episode_summary() key that says how well an episode went (higher is better), for
  // learning curves and comparisons; "" when the env has none (the return is used).
  virtual std::string primary_metric() const { return {}; }
  // How a comparison ranks episodes, best first: by the episode_summary() key `key` ("" = the
  // return), higher or lower being better. Default: the primary metric, higher is better.
  struct Ranking {
    std::string key;
    bool higher_is_better = true;
  };
  virtual Ranking ranking() const { return {primary_metric(), true}; }
  // The summary keys a comparison table shows, in order (default: every summary key).
  virtual std::vector<std::string> report_columns() const { return {}; }
  // Reset options that start the current episode again (memtier: its first window), so that a
  // recording replays from where it began.
  virtual nlohmann::json episode_options() const { return nlohmann::json::object(); }
  // The entities the observation and actions are made of (see EntityLayout), for agents that
  // share one network across them; none by default.
  virtual std::optional<EntityLayout> entity_layout() const { return std::nullopt; }
  // What a front end draws after each reset and step: arrays whose names, types and sizes stay
  // fixed for an episode (memtier: "histogram", raw sample counts per bin, and "resident", each
  // bin's resident fraction). Default: none.
  virtual Frame frame() const { return {}; }
  // What a front end needs to read the frames, fixed for an episode and valid after reset()
  // (memtier: each bin's address span and bytes, the first window, the window count).
  virtual nlohmann::json frame_context() const { return nlohmann::json::object(); }
  bool episode_active() const { return episode_active_; }
  std::span<const float> observation() const { return observation_; }
  InfoView info() const { return {&info_keys_, info_}; }

 protected:
  struct StepOutcome {
    double reward = 0.0;
    bool terminated = false;
    bool truncated = false;
  };

  Env(std::string id, Space observation_space, Space action_space,
      std::vector<std::string> info_keys);

  // Fill observation_buffer() and info_buffer() for the first observation of an episode.
  virtual void on_reset(Rng& rng, const nlohmann::json& options) = 0;
  // Apply a valid action; fill observation_buffer() and info_buffer().
  virtual StepOutcome on_step(std::span<const double> action) = 0;
  // Apply a directive; the default refuses (the env has none).
  virtual StepOutcome on_directive(const Directive& directive);

  // For env-specific step variants (memtier's page-granular placements): checks that an episode
  // is active, runs `apply` (which fills the buffers) and ends the episode when it says so.
  template <typename Apply>
  StepResult step_with(Apply&& apply) {
    require_active();
    const StepOutcome outcome = apply();
    if (outcome.terminated || outcome.truncated) episode_active_ = false;
    return {observation_, outcome.reward, outcome.terminated, outcome.truncated, info()};
  }

  std::span<float> observation_buffer() { return observation_; }
  std::span<double> info_buffer() { return info_; }
  Rng& rng() { return rng_; }

 private:
  void require_active() const;

  std::string id_;
  Space observation_space_;
  Space action_space_;
  std::vector<std::string> info_keys_;
  std::vector<float> observation_;
  std::vector<double> info_;
  Rng rng_{0};
  bool episode_active_ = false;
};

}  // namespace sysgym
