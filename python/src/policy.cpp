// A learned policy file in Python: what it was trained for and on, the env config its contract
// gives (the same core function every shell calls, so a contradiction is the same ConfigError),
// and its action for an env's current observation, by the policy the native tool runs.
#include <memory>
#include <nlohmann/json.hpp>

#include "agents/evaluation.hpp"
#include "agents/learned_policy.hpp"
#include "base/json_text.hpp"
#include "base/rng.hpp"
#include "bindings.hpp"
#include "catalog.hpp"
#include "values.hpp"

namespace sysgym::python {
namespace {

class PyPolicy {
 public:
  explicit PyPolicy(const std::string& path)
      : trained_(agents::trained_policy(cli::json_option(path, "policy"), path)),
        policy_(cli::catalog().policies.make("learned", env_id(), trained_.text)) {}

  const std::string& env_id() const { return trained_.file.env_id; }
  std::string parameters_json() const { return policy_->parameters().dump(); }

  std::string config_json(const std::string& given_json) const {
    const nlohmann::json given = parse_json_text(given_json, "config");
    return agents::config_for_policy("learned", trained_.text, cli::catalog().envs.spec(env_id()),
                                     given)
        .dump();
  }

  // Binding checks the env's layout and spaces against the file's: once per env, not per step.
  py::object act(py::handle core_env) {
    const Env& env = env_of(core_env);
    if (&env != bound_) {
      Rng unused(0);
      policy_->reset(env, unused);
      bound_ = &env;
    }
    policy_->decide(env, decision_);
    return action_value(env.action_space(), decision_.action);
  }

 private:
  agents::TrainedPolicy trained_;
  std::unique_ptr<Policy> policy_;
  Decision decision_;
  const Env* bound_ = nullptr;
};

}  // namespace

void bind_policy(py::module_& m) {
  py::class_<PyPolicy>(m, "CorePolicy")
      .def(py::init<const std::string&>())
      .def_property_readonly("env_id", &PyPolicy::env_id)
      .def("parameters_json", &PyPolicy::parameters_json)
      .def("config_json", &PyPolicy::config_json)
      .def("act", &PyPolicy::act);
}

}  // namespace sysgym::python
