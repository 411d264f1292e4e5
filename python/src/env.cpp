// One env with Gymnasium's calls. reset() and step() return what sysgym/env.py hands the user:
// numpy observations (copies: an agent may keep them), rewards as floats, infos as dicts.
#include <memory>
#include <optional>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "bindings.hpp"
#include "catalog.hpp"
#include "env/env.hpp"
#include "values.hpp"

namespace sysgym::python {
namespace {

class PyEnv {
 public:
  PyEnv(const std::string& id, const std::string& config_json)
      : env_(cli::catalog().envs.make(id, parse_json_text(config_json, "config"))),
        info_keys_(env_->info_keys()),
        action_(env_->action_space().flat_size()),
        observation_shape_(value_shape(env_->observation_space())) {}

  py::tuple reset(std::optional<std::uint64_t> seed, const std::string& options_json) {
    const nlohmann::json options = options_json.empty()
                                       ? nlohmann::json::object()
                                       : parse_json_text(options_json, "reset options");
    const ResetResult r = env().reset(seed, options);
    return py::make_tuple(observation(r.observation), info_keys_.dict(r.info.values));
  }

  py::tuple step(py::handle action) {
    Env& e = env();
    read_action(action, e.action_space(), action_);
    const StepResult r = e.step(action_);
    return py::make_tuple(observation(r.observation), r.reward, r.terminated, r.truncated,
                          info_keys_.dict(r.info.values));
  }

  py::dict render() { return frame_dict(env().frame()); }
  void close() { env_.reset(); }
  bool closed() const { return env_ == nullptr; }

  Env& env() const {
    if (!env_) throw ApiMisuseError("this env is closed: make a new one with sysgym.make()");
    return *env_;
  }

 private:
  py::array_t<float> observation(std::span<const float> values) const {
    return float_array(values, observation_shape_);
  }

  std::unique_ptr<Env> env_;
  InfoKeys info_keys_;
  std::vector<double> action_;
  std::vector<py::ssize_t> observation_shape_;
};

// env.step without pybind11's dispatcher, whose argument and type lookups cost a third of a fast
// env's step: a builtin function (METH_O) whose self is a capsule holding the CoreEnv object.
constexpr const char* kCapsuleName = "sysgym.CoreEnv.step";

PyObject* fast_step(PyObject* capsule, PyObject* action) noexcept {
  auto* env = static_cast<PyEnv*>(PyCapsule_GetPointer(capsule, kCapsuleName));
  if (env == nullptr) return nullptr;
  try {
    return env->step(action).release().ptr();
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

PyMethodDef fast_step_def = {"step", fast_step, METH_O,
                             "step(action) -> (observation, reward, terminated, truncated, info)"};

std::string dump(const nlohmann::json& j) {
  return j.dump();
}

}  // namespace

const Env& env_of(py::handle core_env) {
  if (!py::isinstance<PyEnv>(core_env))
    throw ApiMisuseError("act() takes an env made by sysgym.make (or the policy's make_env)");
  return core_env.cast<const PyEnv&>().env();
}

void bind_env(py::module_& m) {
  py::class_<PyEnv>(m, "CoreEnv")
      .def(py::init<const std::string&, const std::string&>())
      .def("reset", &PyEnv::reset)
      .def("step", &PyEnv::step)
      .def("fast_step",
           [](const py::object& self) {
             return capsule_function(self, &self.cast<PyEnv&>(), kCapsuleName, &fast_step_def);
           })
      .def("render", &PyEnv::render)
      .def("close", &PyEnv::close)
      .def_property_readonly("closed", &PyEnv::closed)
      .def_property_readonly("id", [](const PyEnv& p) { return p.env().id(); })
      .def_property_readonly("observation_space",
                             [](const PyEnv& p) { return make_space(p.env().observation_space()); })
      .def_property_readonly("action_space",
                             [](const PyEnv& p) { return make_space(p.env().action_space()); })
      .def_property_readonly("info_keys", [](const PyEnv& p) { return p.env().info_keys(); })
      .def_property_readonly("episode_active",
                             [](const PyEnv& p) { return p.env().episode_active(); })
      .def("config_json", [](const PyEnv& p) { return dump(p.env().config()); })
      .def("given_config_json", [](const PyEnv& p) { return dump(p.env().given_config()); })
      .def("facts_json", [](const PyEnv& p) { return dump(p.env().facts()); })
      .def("summary_json", [](const PyEnv& p) { return dump(p.env().episode_summary()); })
      .def("episode_options_json", [](const PyEnv& p) { return dump(p.env().episode_options()); })
      .def("frame_context_json", [](const PyEnv& p) { return dump(p.env().frame_context()); })
      .def("observation_layout", [](const PyEnv& p) { return p.env().observation_layout(); })
      .def_property_readonly("primary_metric",
                             [](const PyEnv& p) { return p.env().primary_metric(); });
}

}  // namespace sysgym::python
