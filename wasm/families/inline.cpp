// inline's extras in the npm package: the call graph of a program and the cost model's figures for
// any decision set, as `sysgym inline estimate` gives them natively (the browser's view toggles
// decisions by hand through it, one request per toggle).
#include <emscripten/bind.h>

#include <memory>

#include "../runtime.hpp"

#include "env/config_reader.hpp"
#include "inline/inline_env.hpp"
#include "inline/model_view.hpp"

namespace sysgym::wasm {
namespace {

// The env of the last request's config, kept: a program file is parsed once, not per toggle.
inlining::InlineEnv& inline_env_for(const nlohmann::json& config) {
  static std::string last_config;
  static std::unique_ptr<Env> last;
  const std::string key = config.dump();
  if (!last || key != last_config) {
    last.reset();
    std::unique_ptr<Env> made = runtime().envs.make("inline-v0", config);
    auto& env = dynamic_cast<inlining::InlineEnv&>(*made);
    if (env.facts().value("programs", 1) != 1)
      throw ConfigError("inline.estimate: 'program' names a split; name one program");
    env.reset(0);
    last = std::move(made);
    last_config = key;
  }
  return dynamic_cast<inlining::InlineEnv&>(*last);
}

// {config, decisions, graph} -> the figures (inline/model_view.hpp), or "" after an error.
std::string inline_estimate_json(const std::string& request_json) {
  std::string out;
  guarded([&] {
    nlohmann::json request = parse(request_json);
    if (!request.is_object()) throw ConfigError("inline.estimate: the request is not an object");
    nlohmann::json config = request.value("config", nlohmann::json::object());
    request.erase("config");
    out = inlining::model_view(inline_env_for(config), request, "inline.estimate request").dump();
  });
  return out;
}

}  // namespace
}  // namespace sysgym::wasm

EMSCRIPTEN_BINDINGS(sysgym_inline) {
  emscripten::function("inlineEstimate", &sysgym::wasm::inline_estimate_json);
}
