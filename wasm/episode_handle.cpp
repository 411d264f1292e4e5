#include "episode_handle.hpp"

#include "runtime.hpp"

#include "base/json_text.hpp"

namespace sysgym::wasm {

EpisodeHandle* EpisodeHandle::run(const std::string& env, const std::string& config_json,
                                  const std::string& policy, const std::string& policy_config_json,
                                  const std::string& seed) {
  std::unique_ptr<EpisodeHandle> handle(new EpisodeHandle);
  const bool ok = guarded([&] {
    const std::string id = runtime().envs.resolve(env);
    const nlohmann::json parameters = parse(policy_config_json);
    handle->policy_ = runtime().policies.make(policy, id, parameters);
    handle->env_ =
        runtime().envs.make(id, config_for_policy(id, policy, parameters, parse(config_json)));
    handle->policy_name_ = policy;
    handle->run_ = std::make_unique<PolicyEpisode>(*handle->env_, *handle->policy_, policy,
                                                   seed_value(seed), true);
    handle->result_.assign(3 + handle->env_->info_keys().size(), 0.0);
  });
  return ok ? handle.release() : nullptr;
}

EpisodeHandle* EpisodeHandle::replay(const std::string& episode_json) {
  std::unique_ptr<EpisodeHandle> handle(new EpisodeHandle);
  const bool ok = guarded([&] {
    handle->recording_ = parse_json_text(episode_json, "recorded episode");
    handle->env_ = make_recorded_env(runtime().envs, handle->recording_);
    handle->policy_name_ = handle->recording_.value("policy", "");
    handle->replay_ = std::make_unique<EpisodeReplay>(*handle->env_, handle->recording_);
    handle->result_.assign(3 + handle->env_->info_keys().size(), 0.0);
  });
  return ok ? handle.release() : nullptr;
}

bool EpisodeHandle::done() const {
  return run_ ? run_->done() : replay_->done();
}

bool EpisodeHandle::step() {
  return guarded([&] { store_result(run_ ? run_->step() : replay_->step(), result_); });
}

emscripten::val EpisodeHandle::frame_view(int index) const {
  return frame_array_view(*env_, index);
}

emscripten::val EpisodeHandle::result_view() const {
  return view(std::span<const double>(result_));
}

std::string EpisodeHandle::describe_json() const {
  nlohmann::json j = describe(*env_);
  j["frame"] = frame_layout(*env_);
  j["frame_context"] = env_->frame_context();
  j["policy"] = policy_name_;
  j["replay"] = replay_ != nullptr;
  if (run_) j["policy_parameters"] = policy_->parameters();
  return j.dump();
}

std::string EpisodeHandle::summary_json() const {
  return env_->episode_summary().dump();
}

std::string EpisodeHandle::record_json() const {
  if (!run_) return recording_.dump();
  return episode_to_json(run_->record(), *env_).dump();
}

}  // namespace sysgym::wasm
