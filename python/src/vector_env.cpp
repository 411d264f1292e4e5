// N envs stepped by one call whose loop stays in C++ (EnvPool's lesson): the GIL is released
// while the envs step on a pool of threads. Ctrl-C during a long step is noticed between env
// steps on the calling thread: the envs not yet started are skipped, KeyboardInterrupt is raised
// and the vector env asks for reset() before stepping again (its envs are then out of step).
#include <time.h>
#include <atomic>

#include <cstring>
#include <optional>
#include <thread>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "bindings.hpp"
#include "catalog.hpp"
#include "env/vector_env.hpp"
#include "thread_pool.hpp"
#include "values.hpp"

namespace sysgym::python {
namespace {

constexpr std::int64_t kSignalPollNanoseconds = 20'000'000;

// A monotonic clock read in a few nanoseconds (CLOCK_MONOTONIC_COARSE: ticks of 1-4 ms, plenty
// for polling every 20 ms), since the caller reads it after every env step it runs.
std::int64_t coarse_now() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

class PyVectorEnv {
 public:
  PyVectorEnv(const std::string& id, const std::string& config_json, std::size_t count,
              std::size_t threads, bool copy, bool reuse_arrays)
      : pool_(std::max<std::size_t>(1, std::min(threads, count))),
        envs_(make(id, config_json, count)),
        info_keys_(envs_.info_keys()),
        actions_(count * envs_.action_space().flat_size()),
        copy_(copy) {
    observation_shape_ = value_shape(envs_.observation_space());
    observation_shape_.insert(observation_shape_.begin(), static_cast<py::ssize_t>(count));
    if (reuse_arrays) shared_.emplace(count, info_keys_);
  }

  py::tuple reset(const py::object& self, std::optional<std::uint64_t> seed) {
    require_open();
    run_interruptibly([&] { envs_.reset(seed); });
    needs_reset_ = false;
    return py::make_tuple(observations(self), info_keys_.columns(envs_.infos(), envs_.size()));
  }

  py::tuple step(const py::object& self, py::handle actions) {
    require_open();
    if (needs_reset_) {
      throw ApiMisuseError(
          "the last step or reset of this vector env was interrupted and left its envs out of "
          "step: call reset() first");
    }
    read_actions(actions, envs_.action_space(), envs_.size(), actions_);
    run_interruptibly([&] { envs_.step(actions_); });
    if (shared_) return shared_step(self);
    const std::size_t n = envs_.size();
    py::array_t<double> rewards = new_array<double>(static_cast<py::ssize_t>(n));
    std::memcpy(rewards.mutable_data(), envs_.rewards().data(), envs_.rewards().size_bytes());
    py::dict infos = info_keys_.columns(envs_.infos(), n);
    add_final_rows(infos);
    return py::make_tuple(observations(self), rewards, flags(envs_.terminated()),
                          flags(envs_.truncated()), infos);
  }

  void close() { closed_ = true; }
  bool closed() const { return closed_; }
  const VectorEnv& envs() const { return envs_; }

 private:
  VectorEnv make(const std::string& id, const std::string& config_json, std::size_t count) {
    if (count < 1) throw ApiMisuseError("a vector env needs at least one env, got 0");
    return VectorEnv::make(cli::catalog().envs, id, parse_json_text(config_json, "config"), count,
                           [this](std::size_t n, const std::function<void(std::size_t)>& body) {
                             parallel_for(n, body);
                           });
  }

  // reuse_arrays=True: the rewards, flags and info arrays every step returns, made once and
  // refilled in place (read-only to Python, written here through their pointers), as EnvPool
  // does. Opt-in, as code that keeps a step's rewards without copying them would see them
  // change; it saves a step 18 arrays at memtier's 14 info keys (a few microseconds).
  struct SharedArrays {
    SharedArrays(std::size_t n, const InfoKeys& keys)
        : rewards(new_array<double>(static_cast<py::ssize_t>(n))),
          terminated(new_array<bool>(static_cast<py::ssize_t>(n))),
          truncated(new_array<bool>(static_cast<py::ssize_t>(n))),
          info_block(new_array<double>(std::vector<py::ssize_t>{
              static_cast<py::ssize_t>(keys.size()), static_cast<py::ssize_t>(n)})),
          infos(keys.column_views(info_block, n)),
          rewards_data(rewards.mutable_data()),
          terminated_data(terminated.mutable_data()),
          truncated_data(truncated.mutable_data()),
          info_data(info_block.mutable_data()) {
      for (PyObject* a : {rewards.ptr(), terminated.ptr(), truncated.ptr(), info_block.ptr()})
        py::detail::array_proxy(a)->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
      for (auto item : infos)
        py::detail::array_proxy(item.second.ptr())->flags &=
            ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    }
    py::array_t<double> rewards;
    py::array_t<bool> terminated, truncated;
    py::array_t<double> info_block;
    py::dict infos;  // key -> a view of info_block's row
    // Taken while the arrays were writable.
    double* rewards_data;
    bool *terminated_data, *truncated_data;
    double* info_data;
  };

  py::tuple shared_step(const py::object& self) {
    SharedArrays& a = *shared_;
    const std::size_t n = envs_.size();
    std::memcpy(a.rewards_data, envs_.rewards().data(), envs_.rewards().size_bytes());
    copy_flags(envs_.terminated(), a.terminated_data);
    copy_flags(envs_.truncated(), a.truncated_data);
    info_keys_.transpose(envs_.infos(), n, a.info_data);
    // A dict of its own per step (the caller may add to it), holding the same arrays.
    auto infos = py::reinterpret_steal<py::dict>(PyDict_Copy(a.infos.ptr()));
    if (!infos) throw py::error_already_set();
    add_final_rows(infos);
    return py::make_tuple(observations(self), a.rewards, a.terminated, a.truncated, infos);
  }

  void require_open() const {
    if (closed_) throw ApiMisuseError("this vector env is closed: make a new one");
  }

  // Runs `work` without the GIL; a signal noticed meanwhile is raised once it returns.
  template <typename Work>
  void run_interruptibly(Work&& work) {
    interrupted_ = false;
    caller_ = std::this_thread::get_id();
    last_poll_ = coarse_now();
    {
      const py::gil_scoped_release release;
      work();
    }
    if (interrupted_) {
      needs_reset_ = true;
      throw py::error_already_set();  // the KeyboardInterrupt PyErr_CheckSignals set
    }
  }

  void parallel_for(std::size_t n, const std::function<void(std::size_t)>& body) {
    pool_.parallel_for(n, [&](std::size_t i) {
      if (interrupted_.load(std::memory_order_relaxed)) return;
      body(i);
      if (std::this_thread::get_id() == caller_) poll_signals();
    });
  }

  void poll_signals() {
    const std::int64_t now = coarse_now();
    if (now - last_poll_ < kSignalPollNanoseconds) return;
    last_poll_ = now;
    const py::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) interrupted_ = true;
  }

  py::array observations(const py::object& self) const {
    const std::span<const float> all = envs_.observations();
    if (copy_) return float_array(all, observation_shape_);
    // A read-only view of the envs' buffer that keeps this vector env alive.
    py::array view(py::dtype::of<float>(), observation_shape_, all.data(), self);
    py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return view;
  }

  static void copy_flags(std::span<const std::uint8_t> values, bool* out) {
    for (std::size_t i = 0; i < values.size(); ++i)
      out[i] = values[i] != 0;
  }

  static py::array_t<bool> flags(std::span<const std::uint8_t> values) {
    py::array_t<bool> out = new_array<bool>(static_cast<py::ssize_t>(values.size()));
    copy_flags(values, out.mutable_data());
    return out;
  }

  // Gymnasium 0.29's same-step autoreset keys: the last observation and info of each env whose
  // episode ended, with "_final_observation" and "_final_info" marking which.
  void add_final_rows(py::dict& infos) const {
    const std::size_t n = envs_.size();
    const std::size_t obs_size = envs_.observation_space().flat_size();
    const auto ended = [&](std::size_t i) {
      return envs_.terminated()[i] != 0 || envs_.truncated()[i] != 0;
    };
    bool any = false;
    for (std::size_t i = 0; i < n && !any; ++i)
      any = ended(i);
    if (!any) return;  // the common step: no array made for the mask
    py::array_t<bool> mask = new_array<bool>(static_cast<py::ssize_t>(n));
    for (std::size_t i = 0; i < n; ++i)
      mask.mutable_data()[i] = ended(i);
    py::array final_observations(py::dtype("O"),
                                 py::array::ShapeContainer{static_cast<py::ssize_t>(n)});
    py::array final_infos(py::dtype("O"), py::array::ShapeContainer{static_cast<py::ssize_t>(n)});
    std::vector<py::ssize_t> row_shape(observation_shape_.begin() + 1, observation_shape_.end());
    for (std::size_t i = 0; i < n; ++i) {
      py::object observation = py::none();
      py::object info = py::none();
      if (mask.data()[i]) {
        observation =
            float_array(envs_.final_observations().subspan(i * obs_size, obs_size), row_shape);
        py::dict d =
            info_keys_.dict(envs_.final_infos().subspan(i * info_keys_.size(), info_keys_.size()));
        d["episode_summary"] =
            py::module_::import("json").attr("loads")(envs_.final_summary(i).dump());
        info = std::move(d);
      }
      final_observations[py::int_(i)] = observation;
      final_infos[py::int_(i)] = info;
    }
    infos["final_observation"] = final_observations;
    infos["_final_observation"] = mask;
    infos["final_info"] = final_infos;
    infos["_final_info"] = mask;
  }

  cli::ThreadPool pool_;
  VectorEnv envs_;
  InfoKeys info_keys_;
  std::vector<double> actions_;
  std::vector<py::ssize_t> observation_shape_;
  bool copy_;
  std::optional<SharedArrays> shared_;
  bool closed_ = false;
  bool needs_reset_ = false;
  std::atomic<bool> interrupted_{false};
  std::thread::id caller_;
  std::int64_t last_poll_ = 0;
};

// The vector env's step without pybind11's dispatcher (as env.cpp's fast_step): a builtin
// function whose self is a capsule holding the CoreVectorEnv object.
constexpr const char* kVectorCapsuleName = "sysgym.CoreVectorEnv.step";

PyObject* vector_fast_step(PyObject* capsule, PyObject* actions) noexcept {
  auto* self = static_cast<PyObject*>(PyCapsule_GetContext(capsule));
  auto* envs = static_cast<PyVectorEnv*>(PyCapsule_GetPointer(capsule, kVectorCapsuleName));
  if (envs == nullptr) return nullptr;
  try {
    return envs->step(py::reinterpret_borrow<py::object>(self), actions).release().ptr();
  } catch (...) {
    set_python_error(std::current_exception());
    return nullptr;
  }
}

PyMethodDef vector_fast_step_def = {
    "step", vector_fast_step, METH_O,
    "step(actions) -> (observations, rewards, terminated, truncated, "
    "infos)"};

}  // namespace

void bind_vector_env(py::module_& m) {
  py::class_<PyVectorEnv>(m, "CoreVectorEnv")
      .def(py::init<const std::string&, const std::string&, std::size_t, std::size_t, bool, bool>())
      .def("reset",
           [](const py::object& self, std::optional<std::uint64_t> seed) {
             return self.cast<PyVectorEnv&>().reset(self, seed);
           })
      .def("step", [](const py::object& self,
                      py::handle actions) { return self.cast<PyVectorEnv&>().step(self, actions); })
      .def("fast_step",
           [](const py::object& self) {
             return capsule_function(self, &self.cast<PyVectorEnv&>(), kVectorCapsuleName,
                                     &vector_fast_step_def);
           })
      .def("close", &PyVectorEnv::close)
      .def_property_readonly("closed", &PyVectorEnv::closed)
      .def_property_readonly("num_envs", [](const PyVectorEnv& v) { return v.envs().size(); })
      .def_property_readonly(
          "single_observation_space",
          [](const PyVectorEnv& v) { return make_space(v.envs().observation_space()); })
      .def_property_readonly(
          "single_action_space",
          [](const PyVectorEnv& v) { return make_space(v.envs().action_space()); })
      .def_property_readonly("info_keys",
                             [](const PyVectorEnv& v) { return v.envs().info_keys(); });
}

}  // namespace sysgym::python
