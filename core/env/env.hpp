// The environment contract: Gymnasium semantics in C++.
//
//   reset(seed, options) -> {observation, info}
//   step(action)         -> {observation, reward, terminated, truncated, info}
//
// Observations are float32 buffers owned by the env; the spans returned stay valid until the next
// reset() or step() of the same env. Info is structured: a fixed list of named numbers declared
// by the env (info_keys()) and filled on every reset and step, so stepping allocates nothing.
// Every action is checked against action_space() before the env sees it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/rng.hpp"
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

  // The resolved configuration (every key with its effective value).
  virtual nlohmann::json config() const = 0;
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
