// What sysgym/__init__.py asks of the registry, plus the two helpers that compare runs across
// builds: the episode recordings' observation hash, and the C++ loop the benchmark measures
// Python against (in the same process, so both sides see the same machine state).
#include <chrono>

#include "base/json_text.hpp"
#include "base/rng.hpp"
#include "bindings.hpp"
#include "catalog.hpp"
#include "env/episode.hpp"
#include "env/vector_env.hpp"
#include "thread_pool.hpp"

namespace sysgym::python {
namespace {

std::uint64_t observation_hash(std::uint64_t hash,
                               const py::array_t<float, py::array::c_style>& observation) {
  return chain_hash(hash, {observation.data(), static_cast<std::size_t>(observation.size())});
}

// Seconds for `steps` steps of `count` envs (one env: a plain loop; more: a VectorEnv on
// `threads` threads) taking actions the action space samples, resetting when an episode ends.
double time_native_steps(const std::string& id, const std::string& config_json, std::size_t steps,
                         std::size_t count, std::size_t threads) {
  const nlohmann::json config = parse_json_text(config_json, "config");
  const py::gil_scoped_release release;
  Rng rng(1);
  if (count == 1) {
    const auto env = cli::catalog().envs.make(id, config);
    std::vector<double> action(env->action_space().flat_size());
    env->reset(1);
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < steps; ++i) {
      env->action_space().sample_into(rng, action);
      const StepResult r = env->step(action);
      if (r.terminated || r.truncated) env->reset();
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  cli::ThreadPool pool(std::min(threads, count));
  VectorEnv envs = VectorEnv::make(cli::catalog().envs, id, config, count, pool.as_parallel_for());
  const std::size_t width = envs.action_space().flat_size();
  std::vector<double> actions(count * width);
  envs.reset(1);
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < steps; ++i) {
    for (std::size_t e = 0; e < count; ++e)
      envs.action_space().sample_into(rng, std::span(actions).subspan(e * width, width));
    envs.step(actions);
  }
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

void bind_registry(py::module_& m) {
  m.def("env_ids", [] { return cli::catalog().envs.ids(); });
  m.def("resolve", [](const std::string& id) { return cli::catalog().envs.resolve(id); });
  m.def("spec_json", [](const std::string& id) {
    const EnvSpec& spec = cli::catalog().envs.spec(id);
    return nlohmann::json{{"id", spec.id},
                          {"summary", spec.summary},
                          {"example_config", spec.example_config},
                          {"schema", spec.schema.to_json()}}
        .dump();
  });
  m.def("policy_names", [](const std::string& id) {
    return cli::catalog().policies.names(cli::catalog().envs.resolve(id));
  });
  m.def("derive_seed",
        [](std::uint64_t seed, std::uint64_t index) { return derive_seed(seed, index); });
  m.def("chain_hash", &observation_hash, py::arg("hash"), py::arg("observation"));
  m.def("time_native_steps", &time_native_steps, py::arg("id"), py::arg("config_json"),
        py::arg("steps"), py::arg("count") = 1, py::arg("threads") = 1);
}

}  // namespace sysgym::python
