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

// The same action every step (checked against the space at each step): the baseline that never
// changes its mind, e.g. memtier's swap mode keeping the first-touch placement with action 0.
class ConstantPolicy final : public Policy {
 public:
  explicit ConstantPolicy(std::vector<double> action) : action_(std::move(action)) {}
  void reset(const Env&, Rng&) override {}
  void decide(const Env&, Decision& out) override {
    out.use_directive = false;
    out.action = action_;
  }
  nlohmann::json parameters() const override { return {{"action", action_}}; }

 private:
  std::vector<double> action_;
};

}  // namespace

void register_generic_policies(PolicyRegistry& registry) {
  PolicySpec constant{"constant",
                      "The same action every step, given as `action` (a number or a list, as "
                      "the env's action space takes it).",
                      false, [](const nlohmann::json& config) -> std::unique_ptr<Policy> {
                        ConfigReader reader(config, "constant policy config");
                        const nlohmann::json* given = reader.raw("action");
                        reader.finish();
                        if (given == nullptr)
                          throw ConfigError("constant policy config: 'action' is required");
                        const nlohmann::json& action = *given;
                        std::vector<double> values;
                        try {
                          values = action.is_array() ? action.get<std::vector<double>>()
                                                     : std::vector<double>{action.get<double>()};
                        } catch (const nlohmann::json::exception&) {
                          throw ConfigError(
                              "constant policy config: 'action' must be a number or a list of "
                              "numbers, not " +
                              action.dump());
                        }
                        return std::make_unique<ConstantPolicy>(std::move(values));
                      }};
  constant.needs_parameters = true;
  registry.add(std::move(constant));
  registry.add({"random", "Uniformly random actions from the env's action space.", false,
                [](const nlohmann::json& config) -> std::unique_ptr<Policy> {
                  ConfigReader(config, "random policy config").finish();
                  return std::make_unique<RandomPolicy>();
                }});
}

}  // namespace sysgym
