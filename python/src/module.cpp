// The extension module behind `import sysgym` (sysgym/__init__.py wraps it): the same core, env
// registry and data files as the native tool, bound with pybind11.
#include "bindings.hpp"

namespace sysgym::python {

// The tests' module defines this (tests/python/test_families.cpp) to add the test families;
// the package's module has none.
[[gnu::weak]] void register_test_families() {}

}  // namespace sysgym::python

PYBIND11_MODULE(_sysgym, m) {
  m.doc() = "sysgym's C++ core (use the sysgym package, not this module)";
  sysgym::python::register_test_families();
  sysgym::python::bind_errors(m);
  sysgym::python::bind_spaces(m);
  sysgym::python::bind_env(m);
  sysgym::python::bind_vector_env(m);
  sysgym::python::bind_registry(m);
  sysgym::python::bind_policy(m);
}
