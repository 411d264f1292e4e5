// Core errors cross into Python as the classes of sysgym/errors.py, chosen by Error::kind(): the
// kinds and their messages are the ones the CLI prints and the npm package throws. Also the
// calls that bypass pybind11's dispatcher (the steps), which translate errors themselves.
#include <nlohmann/json.hpp>

#include "base/error.hpp"
#include "bindings.hpp"

namespace sysgym::python {
namespace {

void raise_as(const char* kind, const char* message) {
  const py::module_ errors = py::module_::import("sysgym.errors");
  const py::object type =
      py::hasattr(errors, kind) ? errors.attr(kind) : py::object(errors.attr("Error"));
  PyErr_SetString(type.ptr(), message);
}

}  // namespace

void set_python_error(std::exception_ptr error) {
  try {
    std::rethrow_exception(std::move(error));
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (const Error& e) {
    raise_as(e.kind(), e.what());
  } catch (const nlohmann::json::exception& e) {
    raise_as("ConfigError", (std::string("invalid JSON: ") + e.what()).c_str());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

py::object capsule_function(const py::object& owner, void* pointer, const char* name,
                            PyMethodDef* def) {
  auto capsule = py::reinterpret_steal<py::object>(
      PyCapsule_New(pointer, name, [](PyObject* c) { Py_XDECREF(PyCapsule_GetContext(c)); }));
  if (!capsule) throw py::error_already_set();
  PyCapsule_SetContext(capsule.ptr(), owner.inc_ref().ptr());
  auto function = py::reinterpret_steal<py::object>(PyCFunction_New(def, capsule.ptr()));
  if (!function) throw py::error_already_set();
  return function;
}

void bind_errors(py::module_& /*m*/) {
  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const Error&) {
      set_python_error(std::current_exception());
    } catch (const nlohmann::json::exception&) {
      set_python_error(std::current_exception());
    }
  });
}

}  // namespace sysgym::python
