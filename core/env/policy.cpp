#include "env/policy.hpp"

#include "base/error.hpp"
#include "base/names.hpp"
#include "env/config_reader.hpp"
#include "env/registry.hpp"

namespace sysgym {

std::string env_family(std::string_view env_id) {
  std::string name;
  int version = 0;
  return parse_env_id(env_id, name, version) ? name : std::string(env_id);
}

namespace {

bool runs_on(const PolicySpec& spec, const std::string& family) {
  return spec.family == kAnyFamily || spec.family == family;
}

}  // namespace

void PolicyRegistry::add(PolicySpec spec) {
  if (specs_.count(spec.name) != 0)
    throw ApiMisuseError("policy '" + spec.name + "' is registered twice");
  if (!spec.factory) throw ApiMisuseError("policy '" + spec.name + "' has no factory");
  std::string name = spec.name;
  specs_.emplace(std::move(name), std::move(spec));
}

const PolicySpec& PolicyRegistry::spec(const std::string& name, std::string_view env_id) const {
  const auto it = specs_.find(name);
  if (it != specs_.end() && runs_on(it->second, env_family(env_id))) return it->second;
  std::string message = unknown_name_message("policy", name, names(env_id));
  if (it != specs_.end()) {
    message = "policy '" + name + "' runs on " + it->second.family + " envs, not on " +
              std::string(env_id) + "; " + message;
  }
  throw UnknownNameError(message);
}

std::unique_ptr<Policy> PolicyRegistry::make(const std::string& name, std::string_view env_id,
                                             const nlohmann::json& config) const {
  return spec(name, env_id).factory(config);
}

std::vector<std::string> PolicyRegistry::names(std::string_view env_id) const {
  const std::string family = env_family(env_id);
  std::vector<std::string> out;
  for (const auto& [name, spec] : specs_)
    if (runs_on(spec, family)) out.push_back(name);
  return out;
}

std::vector<std::string> PolicyRegistry::standalone_names(std::string_view env_id) const {
  const std::string family = env_family(env_id);
  std::vector<std::string> out;
  for (const auto& [name, spec] : specs_)
    if (runs_on(spec, family) && !spec.needs_parameters) out.push_back(name);
  return out;
}

namespace {

// Uniform random actions from the env's action space.
class RandomPolicy final : public Policy {
 public:
  void reset(const Env&, Rng& rng) override { rng_ = &rng; }
  void decide(const Env& env, Decision& out) override {
    out.use_directive = false;
    out.action = env.action_space().sample(*rng_);
  }

 private:
  Rng* rng_ = nullptr;
};

}  // namespace

void register_generic_policies(PolicyRegistry& registry) {
  registry.add({"random", "Uniformly random actions from the env's action space.", false,
                [](const nlohmann::json& config) -> std::unique_ptr<Policy> {
                  ConfigReader(config, "random policy config").finish();
                  return std::make_unique<RandomPolicy>();
                }});
}

}  // namespace sysgym
