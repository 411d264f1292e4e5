#include "runtime.hpp"

#include "agents/learned_policy.hpp"
#include "base/json_text.hpp"
#include "base/numbers.hpp"
#include "base/quote.hpp"
#include "builtins/builtins.hpp"
#include "handles.hpp"

namespace sysgym::wasm {
namespace {

std::string error_kind;
std::string error_message;

}  // namespace

Runtime::Runtime() {
  register_builtins(envs, policies, data);
}

Runtime& runtime() {
  static Runtime instance;
  return instance;
}

bool HostFiles::has(const std::string& name) const {
  return callbacks_.call<bool>("has", name);
}

std::vector<std::string> HostFiles::names_with_prefix(const std::string& prefix) const {
  return emscripten::vecFromJSArray<std::string>(callbacks_.call<emscripten::val>("list", prefix));
}

DataBytes HostFiles::read(const std::string& name) const {
  const emscripten::val result = callbacks_.call<emscripten::val>("read", name);
  if (!result["error"].isUndefined()) throw IoError(result["error"].as<std::string>());
  auto bytes = std::make_shared<const std::string>(result["bytes"].as<std::string>());
  return {{reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size()}, bytes};
}

std::string HostFiles::missing(const std::string& name) const {
  return callbacks_.call<std::string>("missing", name);
}

void use_host_files(emscripten::val callbacks, const std::string& shipped_prefix) {
  runtime().data->set_behind(std::make_shared<HostFiles>(std::move(callbacks), shipped_prefix));
}

void record_error(std::string kind, std::string message) {
  error_kind = std::move(kind);
  error_message = printable_message(message);
}

std::string last_error_kind() {
  return error_kind;
}
std::string last_error_message() {
  return error_message;
}

void store_result(const StepResult& r, std::vector<double>& out) {
  out[0] = r.reward;
  out[1] = r.terminated ? 1.0 : 0.0;
  out[2] = r.truncated ? 1.0 : 0.0;
  std::copy(r.info.values.begin(), r.info.values.end(), out.begin() + 3);
}

std::uint64_t seed_value(const std::string& text) {
  return parse_integer(text, "seed", kSeedRange);
}

nlohmann::json config_for_policy(const std::string& id, const std::string& policy,
                                 const nlohmann::json& parameters, nlohmann::json given) {
  return agents::config_for_policy(policy, parameters, runtime().envs.spec(id), given);
}

nlohmann::json parse(const std::string& text) {
  return text.empty() ? nlohmann::json::object() : parse_json_text(text, "JSON argument");
}

nlohmann::json frame_layout(const Env& env) {
  nlohmann::json arrays = nlohmann::json::array();
  for (const FrameArray& a : env.frame())
    arrays.push_back({{"name", a.name}, {"dtype", a.dtype()}, {"size", a.size()}});
  return arrays;
}

emscripten::val frame_array_view(const Env& env, int index) {
  const Frame frame = env.frame();
  if (index < 0 || static_cast<std::size_t>(index) >= frame.size())
    return emscripten::val::undefined();
  return std::visit([](const auto& values) { return view(values); },
                    frame[static_cast<std::size_t>(index)].values);
}

nlohmann::json describe(const Env& env) {
  nlohmann::json j = {
      {"id", env.id()},
      {"observation_space", env.observation_space().to_json()},
      {"action_space", env.action_space().to_json()},
      {"observation_space_text", env.observation_space().to_string()},
      {"action_space_text", env.action_space().to_string()},
      {"config", env.config()},
      {"info_keys", env.info_keys()},
      {"facts", env.facts()},
      {"observation_layout", env.observation_layout()},
      {"primary_metric", env.primary_metric()},
      {"ranking",
       {{"key", env.ranking().key}, {"higher_is_better", env.ranking().higher_is_better}}},
      {"report_columns", env.report_columns()},
      {"entity_layout", env.entity_layout() ? env.entity_layout()->to_json() : nlohmann::json()},
      {"config_schema", runtime().envs.spec(env.id()).schema.to_json()}};
  return j;
}

}  // namespace sysgym::wasm
