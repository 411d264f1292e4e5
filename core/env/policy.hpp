// Policies: whatever chooses an env's next step, behind one interface so that any of them runs
// anywhere a policy runs (`sysgym run`, `sysgym compare`, the browser).
//
// A policy decides from what the env shows (observation, info, spaces) and produces an action,
// or, for policies that belong to an env family, a family Directive (memtier's page-granular
// placements). A family policy may read its env's internals: that is what makes an oracle. The
// registry is scoped by family: a policy registered for "memtier" runs only on memtier envs;
// one registered for every family ("random", "learned") runs on any.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "base/rng.hpp"
#include "env/config_reader.hpp"
#include "env/env.hpp"

namespace sysgym {

struct Decision {
  std::vector<double> action;            // in the env's action space, unless use_directive
  std::unique_ptr<Directive> directive;  // kept across steps so a policy can reuse its buffers
  bool use_directive = false;
};

class Policy {
 public:
  virtual ~Policy() = default;
  // Called after env.reset(): a new episode starts.
  virtual void reset(const Env& env, Rng& rng) = 0;
  // The decision for the env's next step.
  virtual void decide(const Env& env, Decision& out) = 0;
  // Called after each step that did not end the episode.
  virtual void observe(const Env&) {}
  // The resolved parameters (every key with its effective value).
  virtual nlohmann::json parameters() const { return nlohmann::json::object(); }
};

using PolicyFactory = std::function<std::unique_ptr<Policy>(const nlohmann::json& config)>;

// The policies registered for every family.
inline constexpr const char* kAnyFamily = "";

struct PolicySpec {
  std::string name;
  std::string summary;  // one paragraph: what it models
  bool oracle = false;  // reads the future (the family's whole data)
  PolicyFactory factory;
  // Runs only with parameters given (a learned policy's file); left out of comparisons of all.
  bool needs_parameters = false;
  std::string family = kAnyFamily;  // the env family it runs on ("memtier"), or every family
};

class PolicyRegistry {
 public:
  // Throws ApiMisuseError for a name registered twice.
  void add(PolicySpec spec);
  // The policy `name` for the env `env_id`. Throws UnknownNameError naming the closest policy
  // of that env's family, or the factory's ConfigError.
  std::unique_ptr<Policy> make(const std::string& name, std::string_view env_id,
                               const nlohmann::json& config = nlohmann::json::object()) const;
  // Throws UnknownNameError as make() does.
  const PolicySpec& spec(const std::string& name, std::string_view env_id) const;
  // The policies that run on `env_id`, by name.
  std::vector<std::string> names(std::string_view env_id) const;
  // Those that run without parameters: what "compare every policy" compares.
  std::vector<std::string> standalone_names(std::string_view env_id) const;

 private:
  std::map<std::string, PolicySpec> specs_;
};

// The family of an env id: "memtier" for "memtier-v0" (the id itself when it has no version).
std::string env_family(std::string_view env_id);

// The policies of every family: "random".
void register_generic_policies(PolicyRegistry& registry);

// A family policy whose config is read by `make(ConfigReader&)` (unknown keys are errors).
template <typename Make>
PolicySpec family_policy(const std::string& family, const std::string& name, std::string summary,
                         Make make) {
  PolicyFactory factory = [make, name](const nlohmann::json& config) -> std::unique_ptr<Policy> {
    ConfigReader reader(config, name + " policy config");
    auto policy = make(reader);
    reader.finish();
    return policy;
  };
  return {name, std::move(summary), false, std::move(factory), false, family};
}

}  // namespace sysgym
