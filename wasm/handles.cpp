#include "handles.hpp"

#include "runtime.hpp"

#include <emscripten/val.h>

#include "agents/learned_policy.hpp"
#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/numbers.hpp"
#include "env/check_env.hpp"
#include "env/episode.hpp"
#include "env/reports.hpp"
#include "memtier/estimator.hpp"
#include "memtier/memtier_env.hpp"
#include "memtier/prepared_file.hpp"
#include "memtier/reports.hpp"
#include "memtier/traces/load.hpp"

namespace sysgym::wasm {
namespace {

// A numeric window option as the native flag parses it when given as text (the bin), or checked
// against the same range when given as a number (the API).
nlohmann::json window_number(const std::string& key, const nlohmann::json& value) {
  const std::string flag = key == "window_len"  ? "--window-len"
                           : key == "page_size" ? "--page-size"
                                                : "--cpu-cycles-per-ms";
  if (key == "page_size") {
    if (value.is_string())
      return parse_integer(value.get<std::string>(), flag, memtier::kPageSizeBitsRange);
    return value;  // a number: the config reader checks it like any config value
  }
  const NumberRange range =
      key == "window_len" ? memtier::kWindowLenRange : memtier::kCpuCyclesPerMsRange;
  if (value.is_string()) return parse_number(value.get<std::string>(), flag, range);
  if (!value.is_number()) throw ConfigError(flag + ": expected a number, got " + value.dump());
  check_number(value.get<double>(), flag, range);
  return value;
}

bool is_window_number(const std::string& key) {
  return key == "window_len" || key == "page_size" || key == "cpu_cycles_per_ms";
}

// The config of `run|compare ENV`: `base`, then --config's keys, then the KEY=VALUE settings.
nlohmann::json command_line_config(const EnvSpec& spec, nlohmann::json base,
                                   const std::string& config_json,
                                   const std::string& settings_json) {
  if (!config_json.empty()) {
    const nlohmann::json given = parse_json_text(config_json, "--config");
    if (!given.is_object()) throw ConfigError("--config: expected a JSON object");
    base.update(given);
  }
  return spec.with_settings(std::move(base), parse(settings_json).get<std::vector<std::string>>());
}

// The user's config over a policy's base config (a learned policy's training settings).
nlohmann::json over_base(nlohmann::json base, nlohmann::json given) {
  if (base.empty() || !given.is_object()) return given;
  base.update(given);
  return base;
}

std::span<const std::uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

}  // namespace

std::string check_seed_text(const std::string& text, const std::string& name) {
  std::string out;
  guarded([&] { out = std::to_string(parse_integer(text, name, kSeedRange)); });
  return out;
}

std::string env_ids_json() {
  return nlohmann::json(runtime().envs.ids()).dump();
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

std::string check_env_json(const std::string& id, const std::string& config_json,
                           const std::string& seed) {
  std::string out;
  guarded([&] {
    EnvCheckOptions options;
    options.config = parse(config_json);
    options.seed = seed_value(seed);
    out = nlohmann::json(check_env(runtime().envs, runtime().policies, id, options)).dump();
  });
  return out;
}

bool add_traces(const std::string& name, const std::string& ddr_bytes,
                const std::string& hbm_bytes) {
  return guarded([&] {
    auto pair = std::make_shared<memtier::TracePair>();
    pair->ddr = memtier::load_trace(bytes_of(ddr_bytes), name + " (DDR)");
    pair->hbm = memtier::load_trace(bytes_of(hbm_bytes), name + " (HBM)");
    memtier::validate_pair(*pair);
    runtime().traces->add_traces(name, pair);
  });
}

bool add_prepared(const std::string& name, const std::string& bytes) {
  return guarded([&] {
    // The pair's big columns view the bytes, kept alive with it.
    auto owner = std::make_shared<const std::string>(bytes);
    auto pair = std::make_shared<const memtier::PreparedPair>(
        memtier::decode_prepared_pair(ContainerReader(bytes_of(*owner), name), owner));
    runtime().traces->add(name, pair);
  });
}

std::string estimate_json(const std::string& name, const std::string& ranges, double hbm_factor) {
  std::string out;
  guarded([&] {
    const auto pair = runtime().traces->load(name, memtier::WindowRequest{});
    const memtier::HbmRanges hbm(memtier::parse_address_ranges(ranges));
    const memtier::Estimate e = memtier::Estimator(*pair).estimate(hbm, hbm_factor);
    out = nlohmann::json{{"estimated_ms", e.estimated_ms},
                         {"ddr_ms", e.ddr_ms},
                         {"hbm_ms", e.hbm_ms},
                         {"windows", e.windows},
                         {"empty_windows", e.empty_windows},
                         {"samples", e.samples},
                         {"samples_in_hbm", e.samples_in_hbm}}
              .dump();
  });
  return out;
}

std::string run_episode_json(const std::string& config_json, const std::string& policy,
                             const std::string& policy_config_json, const std::string& seed,
                             bool record) {
  std::string out;
  guarded([&] {
    const nlohmann::json parameters = parse(policy_config_json);
    auto p = runtime().policies.make(policy, memtier::kMemtierId, parameters);
    memtier::MemtierEnv env(
        over_base(agents::policy_base_config(policy, parameters,
                                             runtime().envs.spec(memtier::kMemtierId)),
                  parse(config_json)),
        *runtime().traces);
    const auto episode = run_episode(env, *p, policy, seed_value(seed), record);
    nlohmann::json j = episode_to_json(episode, env);
    if (!record) j.erase("steps");
    out = j.dump();
  });
  return out;
}

std::string replay_episode_json(const std::string& episode_json) {
  std::string out;
  guarded([&] {
    const nlohmann::json episode = parse_json_text(episode_json, "recorded episode");
    memtier::MemtierEnv env(episode.at("config"), *runtime().traces);
    out = replay_episode(env, episode).dump();
  });
  return out;
}

std::string estimate_report_text(const std::string& name, const std::string& windows_json,
                                 const std::string& ranges, const std::string& hbm_factor,
                                 const std::string& measured_bytes, bool has_measured) {
  std::string out;
  guarded([&] {
    nlohmann::json w = parse(windows_json);
    if (!w.is_object()) throw ConfigError("window options: expected a JSON object");
    for (auto& [key, value] : w.items()) {
      if (is_window_number(key)) value = window_number(key, value);
    }
    memtier::WindowRequest request;
    request.any_given = !w.empty();
    request.mode_given = true;  // estimate never picks the mode by itself: memai unless told
    request.options.mode = memtier::parse_window_mode(w.value("mode", "memai"));
    request.options.unit = memtier::parse_window_unit(w.value("unit", "ms"));
    if (w.contains("window_len")) request.options.window_len = w["window_len"].get<double>();
    request.options.page_size_bits = w.value("page_size", 13);
    request.options.cpu_cycles_per_ms = w.value("cpu_cycles_per_ms", 1.4e6);
    memtier::validate_window_options(request.options);
    const auto pair = runtime().traces->load(name, request);
    memtier::HbmRanges hbm(memtier::parse_address_ranges(ranges));
    std::optional<memtier::Trace> measured;
    if (has_measured) measured = memtier::load_trace(bytes_of(measured_bytes), "measured");
    const double factor = parse_number(hbm_factor, "--hbm-factor", memtier::kHbmFactorRange);
    out = memtier::estimate_report(*pair, hbm, factor, measured ? &*measured : nullptr).dump(2);
  });
  return out;
}

std::string run_report_text(const std::string& env, const std::string& config_json,
                            const std::string& settings_json, const std::string& policy,
                            const std::string& policy_config_json, const std::string& seed,
                            bool record) {
  std::string out;
  guarded([&] {
    const std::string id = runtime().envs.resolve(env);
    const EnvSpec& spec = runtime().envs.spec(id);
    const nlohmann::json parameters = policy_config_json.empty()
                                          ? nlohmann::json::object()
                                          : parse_json_text(policy_config_json, "--policy-config");
    auto p = runtime().policies.make(policy, id, parameters);
    const auto made = runtime().envs.make(
        id, command_line_config(spec, agents::policy_base_config(policy, parameters, spec),
                                config_json, settings_json));
    const auto episode = run_episode(*made, *p, policy, seed_value(seed), record);
    const std::string recorded = record ? episode_to_json(episode, *made).dump() : std::string();
    out = nlohmann::json::array({run_report(episode, *made).dump(2), recorded}).dump();
  });
  return out;
}

std::string compare_report_text(const std::string& env, const std::string& config_json,
                                const std::string& settings_json, const std::string& names_json,
                                const std::string& seed) {
  std::string out;
  guarded([&] {
    const std::string id = runtime().envs.resolve(env);
    const nlohmann::json config = command_line_config(
        runtime().envs.spec(id), nlohmann::json::object(), config_json, settings_json);
    std::vector<std::string> names = parse(names_json).get<std::vector<std::string>>();
    if (names.empty()) names = runtime().policies.standalone_names(id);
    out = compare_report([&] { return runtime().envs.make(id, config); }, runtime().policies, names,
                         seed_value(seed))
              .dump(2);
  });
  return out;
}

EnvHandle::EnvHandle(std::unique_ptr<Env> env)
    : env_(std::move(env)),
      action_(env_->action_space().flat_size(), 0.0),
      result_(3 + env_->info_keys().size(), 0.0) {}

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

void EnvHandle::sample_action(const std::string& seed, bool seeded) {
  if (seeded) sampler_.reseed(seed_value(seed));
  env_->action_space().sample_into(sampler_, action_);
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

VectorHandle::VectorHandle(VectorEnv envs)
    : envs_(std::move(envs)), actions_(envs_.size() * envs_.action_space().flat_size(), 0.0) {}

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
