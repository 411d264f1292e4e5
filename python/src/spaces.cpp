// A space's own generator and membership test, run by the core: the same seed draws the same
// members here, in the native tool and in the npm package.
#include <nlohmann/json.hpp>
#include <optional>

#include "base/error.hpp"
#include "base/rng.hpp"
#include "bindings.hpp"
#include "env/space.hpp"
#include "values.hpp"

namespace sysgym::python {
namespace {

class PySpace {
 public:
  explicit PySpace(Space space) : space_(std::move(space)), scratch_(space_.flat_size()) {}

  void seed(std::uint64_t seed) { rng_.reseed(seed); }

  py::object sample() {
    space_.sample_into(rng_, scratch_);
    return action_value(space_, scratch_);
  }

  bool contains(py::handle value) {
    try {
      read_action(value, space_, scratch_);
      return space_.contains(scratch_);
    } catch (const InvalidActionError&) {
      return false;
    }
  }

  std::string json() const { return space_.to_json().dump(); }
  std::string text() const { return space_.to_string(); }
  const Space& space() const { return space_; }

 private:
  Space space_;
  Rng rng_{0};
  std::vector<double> scratch_;
};

}  // namespace

py::object make_space(const Space& space) {
  return py::cast(PySpace(space));
}

void bind_spaces(py::module_& m) {
  py::class_<PySpace>(m, "CoreSpace")
      .def("seed", &PySpace::seed)
      .def("sample", &PySpace::sample)
      .def("contains", &PySpace::contains)
      .def_property_readonly("json", &PySpace::json)
      .def("__str__", &PySpace::text);
}

}  // namespace sysgym::python
