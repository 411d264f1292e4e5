#include "env/vector_env.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "profiling/ops.hpp"

namespace sysgym {

VectorEnv::VectorEnv(std::vector<std::unique_ptr<Env>> envs, ParallelFor parallel_for)
    : envs_(std::move(envs)), parallel_for_(std::move(parallel_for)) {
  if (envs_.empty()) throw ApiMisuseError("VectorEnv needs at least one env");
  const Env& first = *envs_.front();
  for (std::size_t i = 1; i < envs_.size(); ++i) {
    const Env& e = *envs_[i];
    if (!(e.observation_space() == first.observation_space()) ||
        !(e.action_space() == first.action_space()) || e.info_keys() != first.info_keys()) {
      throw ApiMisuseError("VectorEnv: env " + std::to_string(i) +
                           " has different spaces or info keys than env 0");
    }
  }
  obs_size_ = first.observation_space().flat_size();
  action_size_ = first.action_space().flat_size();
  info_size_ = first.info_keys().size();
  const std::size_t n = envs_.size();
  observations_.assign(n * obs_size_, 0.0f);
  final_observations_.assign(n * obs_size_, 0.0f);
  rewards_.assign(n, 0.0);
  terminated_.assign(n, 0);
  truncated_.assign(n, 0);
  infos_.assign(n * info_size_, 0.0);
  final_infos_.assign(n * info_size_, 0.0);
  final_summaries_.assign(n, nlohmann::json::object());
}

VectorEnv VectorEnv::make(const Registry& registry, std::string_view id,
                          const nlohmann::json& config, std::size_t count,
                          ParallelFor parallel_for) {
  std::vector<std::unique_ptr<Env>> envs;
  envs.reserve(count);
  for (std::size_t i = 0; i < count; ++i)
    envs.push_back(registry.make(id, config));
  return VectorEnv(std::move(envs), std::move(parallel_for));
}

void VectorEnv::run(const std::function<void(std::size_t)>& body) {
  if (parallel_for_) {
    parallel_for_(envs_.size(), body);
  } else {
    for (std::size_t i = 0; i < envs_.size(); ++i)
      body(i);
  }
}

void VectorEnv::copy_row(std::size_t i, std::span<const float> observation, InfoView info,
                         bool final) {
  float* obs_row = (final ? final_observations_ : observations_).data() + i * obs_size_;
  double* info_row = (final ? final_infos_ : infos_).data() + i * info_size_;
  std::copy(observation.begin(), observation.end(), obs_row);
  std::copy(info.values.begin(), info.values.end(), info_row);
}

void VectorEnv::reset(std::optional<std::uint64_t> seed) {
  run([&](std::size_t i) {
    std::optional<std::uint64_t> env_seed;
    if (seed) env_seed = derive_seed(*seed, i);
    const ResetResult r = envs_[i]->reset(env_seed);
    copy_row(i, r.observation, r.info, false);
    rewards_[i] = 0.0;
    terminated_[i] = 0;
    truncated_[i] = 0;
  });
}

void VectorEnv::step(std::span<const double> actions) {
  const profiling::Scope scope(profiling::ops::kVectorStep);
  if (actions.size() != envs_.size() * action_size_) {
    throw InvalidActionError("VectorEnv step: got " + std::to_string(actions.size()) +
                             " action values, expected " + std::to_string(envs_.size()) +
                             " envs x " + std::to_string(action_size_));
  }
  for (std::size_t i = 0; i < envs_.size(); ++i) {
    if (!envs_[i]->episode_active()) {
      throw ApiMisuseError("VectorEnv step: env " + std::to_string(i) +
                           " has no active episode; call reset() first");
    }
    // The message (an allocation) only for an action that is not in the space.
    const std::span<const double> row = actions.subspan(i * action_size_, action_size_);
    if (!envs_[i]->action_space().contains(row))
      envs_[i]->action_space().check(row, "env " + std::to_string(i) + " action");
  }
  run([&](std::size_t i) {
    Env& env = *envs_[i];
    const StepResult r = env.step(actions.subspan(i * action_size_, action_size_));
    rewards_[i] = r.reward;
    terminated_[i] = r.terminated ? 1 : 0;
    truncated_[i] = r.truncated ? 1 : 0;
    if (r.terminated || r.truncated) {
      copy_row(i, r.observation, r.info, true);
      final_summaries_[i] = env.episode_summary();
      const ResetResult next = env.reset();
      copy_row(i, next.observation, next.info, false);
    } else {
      copy_row(i, r.observation, r.info, false);
    }
  });
}

}  // namespace sysgym
