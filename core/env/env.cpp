#include "env/env.hpp"

#include "base/error.hpp"
#include "base/names.hpp"
#include "profiling/ops.hpp"

namespace sysgym {

double InfoView::at(std::string_view key) const {
  for (std::size_t i = 0; i < keys->size(); ++i) {
    if ((*keys)[i] == key) return values[i];
  }
  throw UnknownNameError(unknown_name_message("info key", key, *keys));
}

nlohmann::json InfoView::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (std::size_t i = 0; i < keys->size(); ++i)
    j[(*keys)[i]] = values[i];
  return j;
}

Env::Env(std::string id, Space observation_space, Space action_space,
         std::vector<std::string> info_keys)
    : id_(std::move(id)),
      observation_space_(std::move(observation_space)),
      action_space_(std::move(action_space)),
      info_keys_(std::move(info_keys)),
      observation_(observation_space_.flat_size(), 0.0f),
      info_(info_keys_.size(), 0.0) {}

ResetResult Env::reset(std::optional<std::uint64_t> seed, const nlohmann::json& options) {
  const profiling::Scope scope(profiling::ops::kEnvReset);
  if (seed) rng_.reseed(*seed);
  episode_active_ = false;
  on_reset(rng_, options);
  episode_active_ = true;
  return {observation_, info()};
}

void Env::require_active() const {
  if (!episode_active_) {
    throw ApiMisuseError(id_ +
                         ": step() called without an active episode; call reset() first (after the "
                         "first reset, and again once terminated or truncated)");
  }
}

StepResult Env::step(std::span<const double> action) {
  const profiling::Scope scope(profiling::ops::kEnvStep);
  require_active();
  action_space_.check(action, id_ + " action");
  return step_with([&] { return on_step(action); });
}

StepResult Env::step_directive(const Directive& directive) {
  const profiling::Scope scope(profiling::ops::kEnvStep);
  return step_with([&] { return on_directive(directive); });
}

Env::StepOutcome Env::on_directive(const Directive&) {
  throw ApiMisuseError(id_ + " takes no directives: step it with actions from its action space");
}

bool Env::read_directive(const nlohmann::json&, std::unique_ptr<Directive>&) const {
  return false;
}

std::vector<std::string> Env::observation_layout() const {
  std::vector<std::string> names(observation_.size());
  for (std::size_t i = 0; i < names.size(); ++i)
    names[i] = "obs[" + std::to_string(i) + "]";
  return names;
}

}  // namespace sysgym
