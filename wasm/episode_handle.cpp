#include "episode_handle.hpp"

#include "runtime.hpp"

#include "base/json_text.hpp"

namespace sysgym::wasm {

EpisodeHandle* EpisodeHandle::run(const std::string& config_json, const std::string& policy,
                                  const std::string& policy_config_json, const std::string& seed) {
  std::unique_ptr<EpisodeHandle> handle(new EpisodeHandle);
  const bool ok = guarded([&] {
    handle->policy_ =
        runtime().policies.make(policy, memtier::kMemtierId, parse(policy_config_json));
    handle->env_ = std::make_unique<memtier::MemtierEnv>(parse(config_json), *runtime().traces);
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
    if (!handle->recording_.is_object() || !handle->recording_.contains("config"))
      throw TraceFormatError("recorded episode: no \"config\" to make its env from");
    handle->env_ =
        std::make_unique<memtier::MemtierEnv>(handle->recording_["config"], *runtime().traces);
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

emscripten::val EpisodeHandle::histogram_view() const {
  return view(env_->render_frame().histogram);
}
emscripten::val EpisodeHandle::resident_view() const {
  return view(env_->render_frame().resident_fraction);
}
emscripten::val EpisodeHandle::result_view() const {
  return view(std::span<const double>(result_));
}

std::string EpisodeHandle::describe_json() const {
  nlohmann::json j = describe(*env_);
  // Each bin's lowest and highest address and its bytes: what the heatmap's rows span.
  nlohmann::json bins = nlohmann::json::array();
  for (const memtier::Bin& b : env_->bins().bins()) {
    bins.push_back({{"lo", format_hex(b.ranges.front().lo)},
                    {"hi", format_hex(b.ranges.back().hi)},
                    {"bytes", b.bytes}});
  }
  j["bins"] = bins;
  j["start"] = env_->episode_begin();
  j["windows"] = env_->episode_end() - env_->episode_begin();
  j["policy"] = policy_name_;
  j["replay"] = replay_ != nullptr;
  if (run_) j["policy_parameters"] = policy_->parameters();
  return j.dump();
}

std::string EpisodeHandle::summary_json() const {
  return env_->summary().to_json().dump();
}

std::string EpisodeHandle::record_json() const {
  if (!run_) return recording_.dump();
  return episode_to_json(run_->record(), *env_).dump();
}

}  // namespace sysgym::wasm
