#include "handles.hpp"

#include "runtime.hpp"

#include <emscripten/val.h>

#include "agents/learned_policy.hpp"
#include "agents/trainer.hpp"
#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/numbers.hpp"
#include "env/check_env.hpp"
#include "env/describe.hpp"
#include "env/episode.hpp"
#include "env/report_text.hpp"
#include "env/reports.hpp"

namespace sysgym::wasm {
namespace {

// The config of `run|compare ENV`: `base`, then --config's keys, then the KEY=VALUE settings.
nlohmann::json command_line_config(const EnvSpec& spec, nlohmann::json base,
                                   const std::string& config_json,
                                   const std::string& settings_json) {
  return spec.command_line_config(
      std::move(base),
      config_json.empty() ? nlohmann::json() : parse_json_text(config_json, "--config"),
      parse(settings_json).get<std::vector<std::string>>());
}

}  // namespace

std::string check_seed_text(const std::string& text, const std::string& name) {
  std::string out;
  guarded([&] { out = std::to_string(parse_integer(text, name, kSeedRange)); });
  return out;
}

std::string check_integer_text(const std::string& text, const std::string& name, double min,
                               double max) {
  std::string out;
  guarded([&] {
    const IntegerRange range{static_cast<std::uint64_t>(min), static_cast<std::uint64_t>(max)};
    out = std::to_string(parse_integer(text, name, range));
  });
  return out;
}

std::string resolve_env_id(const std::string& env) {
  std::string out;
  guarded([&] { out = runtime().envs.resolve(env); });
  return out;
}

bool add_data(const std::string& name, const std::string& bytes) {
  return guarded([&] { runtime().data->add(name, std::make_shared<const std::string>(bytes)); });
}

std::string env_ids_json() {
  return nlohmann::json(runtime().envs.ids()).dump();
}

std::string env_list_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const std::string& id : runtime().envs.ids())
    out.push_back({{"id", id}, {"summary", runtime().envs.spec(id).summary}});
  return out.dump(2);
}

std::string policies_json(const std::string& env) {
  std::string out;
  guarded([&] {
    const std::string id = runtime().envs.resolve(env);
    nlohmann::json list = nlohmann::json::array();
    for (const std::string& name : runtime().policies.names(id)) {
      const auto& spec = runtime().policies.spec(name, id);
      list.push_back({{"name", name},
                      {"oracle", spec.oracle},
                      {"needs_parameters", spec.needs_parameters},
                      {"summary", spec.summary}});
    }
    out = list.dump();
  });
  return out;
}

std::string config_schema_json(const std::string& env) {
  std::string out;
  guarded([&] { out = runtime().envs.spec(env).schema.to_json().dump(); });
  return out;
}

std::string info_keys_json(const std::string& env) {
  std::string out;
  guarded([&] {
    const EnvSpec& spec = runtime().envs.spec(env);
    out = nlohmann::json(runtime().envs.make(spec.id, spec.example_config)->info_keys()).dump();
  });
  return out;
}

std::string check_env_json(const std::string& id, const std::string& config_json,
                           const std::string& settings_json, const std::string& seed) {
  std::string out;
  guarded([&] {
    EnvCheckOptions options;
    options.config = command_line_config(runtime().envs.spec(id), nlohmann::json::object(),
                                         config_json, settings_json);
    options.seed = seed_value(seed);
    out = nlohmann::json(check_env(runtime().envs, runtime().policies, id, options)).dump();
  });
  return out;
}

std::string run_episode_json(const std::string& env, const std::string& config_json,
                             const std::string& policy, const std::string& policy_config_json,
                             const std::string& seed, bool record) {
  std::string out;
  guarded([&] {
    const std::string id = runtime().envs.resolve(env);
    const nlohmann::json parameters = parse(policy_config_json);
    auto p = runtime().policies.make(policy, id, parameters);
    const auto made =
        runtime().envs.make(id, config_for_policy(id, policy, parameters, parse(config_json)));
    const auto episode = run_episode(*made, *p, policy, seed_value(seed), record);
    nlohmann::json j = episode_to_json(episode, *made);
    if (!record) {
      j.erase("steps");
      j["returns"] = episode.returns;  // what a comparison draws, far smaller than the steps
    }
    out = j.dump();
  });
  return out;
}

std::string replay_episode_json(const std::string& episode_json) {
  std::string out;
  guarded([&] {
    const nlohmann::json episode = parse_json_text(episode_json, "recorded episode");
    out = replay_episode(*make_recorded_env(runtime().envs, episode), episode).dump();
  });
  return out;
}

std::string run_report_text(const std::string& env, const std::string& config_json,
                            const std::string& settings_json, const std::string& policy,
                            const std::string& policy_config_json, const std::string& seed,
                            bool record, bool json) {
  std::string out;
  guarded([&] {
    const std::string id = runtime().envs.resolve(env);
    const EnvSpec& spec = runtime().envs.spec(id);
    const nlohmann::json parameters = policy_config_json.empty()
                                          ? nlohmann::json::object()
                                          : parse_json_text(policy_config_json, "--policy-config");
    auto p = runtime().policies.make(policy, id, parameters);
    const auto made = runtime().envs.make(
        id, agents::config_for_policy(
                policy, parameters, spec,
                command_line_config(spec, nlohmann::json::object(), config_json, settings_json)));
    const auto episode = run_episode(*made, *p, policy, seed_value(seed), record);
    const std::string recorded = record ? episode_to_json(episode, *made).dump() : std::string();
    const nlohmann::json report = run_report(episode, *made);
    out = nlohmann::json::array(
              {json ? report.dump(2) : sysgym::run_report_text(report, id, made->primary_metric()),
               recorded})
              .dump();
  });
  return out;
}

std::string describe_report_text(const std::string& env, const std::string& config_json,
                                 const std::string& settings_json, bool json) {
  std::string out;
  guarded([&] {
    const std::string id = env.empty() ? runtime().envs.first_id() : runtime().envs.resolve(env);
    const EnvSpec& spec = runtime().envs.spec(id);
    const nlohmann::json config =
        command_line_config(spec, spec.example_config, config_json, settings_json);
    const auto made = runtime().envs.make(id, config);
    const nlohmann::json report =
        describe_report(spec, *made, runtime().policies,
                        agents::fitting_agents(runtime().envs, spec, config, *made));
    out = json ? report.dump(2) : describe_text(spec, *made, report);
  });
  return out;
}

std::string compare_report_text(const std::string& env, const std::string& config_json,
                                const std::string& settings_json, const std::string& names_json,
                                const std::string& seed, bool json) {
  std::string out;
  guarded([&] {
    const std::string id = runtime().envs.resolve(env);
    const nlohmann::json config = command_line_config(
        runtime().envs.spec(id), nlohmann::json::object(), config_json, settings_json);
    std::vector<std::string> names = parse(names_json).get<std::vector<std::string>>();
    if (names.empty()) names = runtime().policies.standalone_names(id);
    const nlohmann::json rows = compare_report([&] { return runtime().envs.make(id, config); },
                                               runtime().policies, names, seed_value(seed));
    if (json) {
      out = rows.dump(2);
    } else {
      const auto made = runtime().envs.make(id, config);
      out = comparison_text(id, *made, rows) + comparison_footer_text(*made, rows);
    }
  });
  return out;
}

SpaceSampler::SpaceSampler(const Space& space, std::size_t batch)
    : space_(space), out_(batch * space.flat_size(), 0.0) {}

void SpaceSampler::sample() {
  const std::size_t size = space_.flat_size();
  for (std::size_t at = 0; at < out_.size(); at += size)
    space_.sample_into(rng_, std::span<double>(out_).subspan(at, size));
}

emscripten::val SpaceSampler::view() const {
  return wasm::view(std::span<const double>(out_));
}

namespace {

std::size_t role_index(int role) {
  if (role != kActionSpace && role != kObservationSpace)
    throw ApiMisuseError("space role " + std::to_string(role) +
                         " is neither action (0) nor observation (1)");
  return static_cast<std::size_t>(role);
}

}  // namespace

EnvHandle::EnvHandle(std::unique_ptr<Env> env)
    : env_(std::move(env)),
      action_(env_->action_space().flat_size(), 0.0),
      result_(3 + env_->info_keys().size(), 0.0),
      samplers_{{env_->action_space(), 1}, {env_->observation_space(), 1}} {}

EnvHandle* EnvHandle::make(const std::string& id, const std::string& config_json) {
  EnvHandle* handle = nullptr;
  guarded([&] { handle = new EnvHandle(runtime().envs.make(id, parse(config_json))); });
  return handle;
}

bool EnvHandle::reset(const std::string& seed, bool seeded, const std::string& options_json) {
  return guarded([&] {
    std::optional<std::uint64_t> s;
    if (seeded) s = seed_value(seed);
    const ResetResult r = env_->reset(s, parse(options_json));
    std::fill(result_.begin(), result_.begin() + 3, 0.0);
    std::copy(r.info.values.begin(), r.info.values.end(), result_.begin() + 3);
  });
}

bool EnvHandle::step() {
  return guarded([&] { store_result(env_->step(action_), result_); });
}

bool EnvHandle::contains_action() const {
  return env_->action_space().contains(action_);
}

bool EnvHandle::seed_space(int role, const std::string& seed) {
  return guarded([&] { samplers_[role_index(role)].seed(seed_value(seed)); });
}
void EnvHandle::sample_space(int role) {
  samplers_[role_index(role)].sample();
}
emscripten::val EnvHandle::sample_view(int role) const {
  return samplers_[role_index(role)].view();
}

emscripten::val EnvHandle::observation_view() const {
  return view(env_->observation());
}
emscripten::val EnvHandle::action_view() {
  return view(std::span<const double>(action_));
}
emscripten::val EnvHandle::result_view() const {
  return view(std::span<const double>(result_));
}
std::string EnvHandle::describe_json() const {
  return describe(*env_).dump();
}

std::string EnvHandle::summary_json() const {
  return env_->episode_summary().dump();
}
std::string EnvHandle::frame_layout_json() const {
  return frame_layout(*env_).dump();
}
emscripten::val EnvHandle::frame_view(int index) const {
  return frame_array_view(*env_, index);
}

VectorHandle::VectorHandle(VectorEnv envs)
    : envs_(std::move(envs)),
      actions_(envs_.size() * envs_.action_space().flat_size(), 0.0),
      samplers_{{envs_.action_space(), envs_.size()}, {envs_.observation_space(), envs_.size()}} {}

bool VectorHandle::seed_space(int role, const std::string& seed) {
  return guarded([&] { samplers_[role_index(role)].seed(seed_value(seed)); });
}
void VectorHandle::sample_space(int role) {
  samplers_[role_index(role)].sample();
}
emscripten::val VectorHandle::sample_view(int role) const {
  return samplers_[role_index(role)].view();
}

VectorHandle* VectorHandle::make(const std::string& id, const std::string& config_json, int count) {
  VectorHandle* handle = nullptr;
  guarded([&] {
    if (count < 1)
      throw ApiMisuseError("a vector env needs at least one env, got " + std::to_string(count));
    handle = new VectorHandle(
        VectorEnv::make(runtime().envs, id, parse(config_json), static_cast<std::size_t>(count)));
  });
  return handle;
}

bool VectorHandle::reset(const std::string& seed, bool seeded) {
  return guarded([&] {
    std::optional<std::uint64_t> s;
    if (seeded) s = seed_value(seed);
    envs_.reset(s);
  });
}

bool VectorHandle::step() {
  return guarded([&] { envs_.step(actions_); });
}

emscripten::val VectorHandle::actions_view() {
  return view(std::span<const double>(actions_));
}
emscripten::val VectorHandle::observations_view() const {
  return view(envs_.observations());
}
emscripten::val VectorHandle::rewards_view() const {
  return view(envs_.rewards());
}
emscripten::val VectorHandle::terminated_view() const {
  return view(envs_.terminated());
}
emscripten::val VectorHandle::truncated_view() const {
  return view(envs_.truncated());
}
emscripten::val VectorHandle::infos_view() const {
  return view(envs_.infos());
}
emscripten::val VectorHandle::final_observations_view() const {
  return view(envs_.final_observations());
}
std::string VectorHandle::describe_json() const {
  return describe(envs_.env(0)).dump();
}

}  // namespace sysgym::wasm
