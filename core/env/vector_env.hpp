// N envs of the same id and config stepped with one call (EnvPool / Gymnasium vector semantics).
//
// Batched buffers are contiguous, row i belongs to env i. Autoreset is same-step: when env i
// terminates or truncates, its last observation and info are copied into the final_* rows and
// the env is reset at once, so observations() always holds observations an agent can act on.
// Core spawns no threads: a shell may pass a ParallelFor that runs the per-env bodies on a pool;
// the results are identical either way because envs share nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "env/env.hpp"
#include "env/registry.hpp"

namespace sysgym {

// Calls body(i) for every i in [0, n), in any order, possibly concurrently.
using ParallelFor =
    std::function<void(std::size_t n, const std::function<void(std::size_t)>& body)>;

class VectorEnv {
 public:
  // Throws ApiMisuseError when `envs` is empty or the envs' spaces or info keys differ.
  explicit VectorEnv(std::vector<std::unique_ptr<Env>> envs, ParallelFor parallel_for = {});
  static VectorEnv make(const Registry& registry, std::string_view id, const nlohmann::json& config,
                        std::size_t count, ParallelFor parallel_for = {});

  std::size_t size() const { return envs_.size(); }
  const Env& env(std::size_t i) const { return *envs_.at(i); }
  const Space& observation_space() const { return envs_.front()->observation_space(); }
  const Space& action_space() const { return envs_.front()->action_space(); }
  const std::vector<std::string>& info_keys() const { return envs_.front()->info_keys(); }

  // Env i is reset with derive_seed(seed, i); without a seed every env continues its stream.
  void reset(std::optional<std::uint64_t> seed = std::nullopt);
  // `actions` holds size() rows of action_space().flat_size() values. Every row is checked
  // before any env steps, so an invalid action leaves every env untouched
  // (InvalidActionError names the env index).
  void step(std::span<const double> actions);

  std::span<const float> observations() const { return observations_; }
  std::span<const double> rewards() const { return rewards_; }
  std::span<const std::uint8_t> terminated() const { return terminated_; }
  std::span<const std::uint8_t> truncated() const { return truncated_; }
  std::span<const double> infos() const { return infos_; }
  // Rows valid where terminated or truncated was set by the last step().
  std::span<const float> final_observations() const { return final_observations_; }
  std::span<const double> final_infos() const { return final_infos_; }
  // Env i's episode_summary() when its last episode ended (before the autoreset).
  const nlohmann::json& final_summary(std::size_t i) const { return final_summaries_.at(i); }

 private:
  void copy_row(std::size_t i, std::span<const float> observation, InfoView info, bool final);
  void run(const std::function<void(std::size_t)>& body);

  std::vector<std::unique_ptr<Env>> envs_;
  ParallelFor parallel_for_;
  std::size_t obs_size_ = 0;
  std::size_t action_size_ = 0;
  std::size_t info_size_ = 0;
  std::vector<float> observations_;
  std::vector<double> rewards_;
  std::vector<std::uint8_t> terminated_;
  std::vector<std::uint8_t> truncated_;
  std::vector<double> infos_;
  std::vector<float> final_observations_;
  std::vector<double> final_infos_;
  std::vector<nlohmann::json> final_summaries_;
};

}  // namespace sysgym
