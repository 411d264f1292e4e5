// The pieces of the `sysgym._sysgym` extension module, each bound by its own file.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <exception>

#include "env/env.hpp"
#include "env/space.hpp"

namespace sysgym::python {

namespace py = pybind11;

void bind_errors(py::module_& m);      // errors.cpp: core errors -> sysgym.errors classes
void bind_spaces(py::module_& m);      // spaces.cpp: sampling and membership by the core
void bind_env(py::module_& m);         // env.cpp: one env, Gymnasium's calls
void bind_vector_env(py::module_& m);  // vector_env.cpp: N envs stepped in C++ threads
void bind_registry(py::module_& m);    // registry.cpp: ids, schemas, hashes
void bind_policy(py::module_& m);      // policy.cpp: learned policy files

// The core env behind a sysgym.env.Env's `_core` (env.cpp); ApiMisuseError once it is closed.
const Env& env_of(py::handle core_env);

// Sets the Python error for a C++ exception as pybind11's translator does (errors.cpp), for
// functions called without pybind11's dispatcher.
void set_python_error(std::exception_ptr error);

// A builtin function calling `def` with a capsule of `pointer` (named `name`) as its self; the
// capsule keeps `owner`, the Python object holding *pointer, alive (errors.cpp).
py::object capsule_function(const py::object& owner, void* pointer, const char* name,
                            PyMethodDef* def);

// A space as sysgym.spaces wraps it (spaces.cpp).
py::object make_space(const Space& space);

}  // namespace sysgym::python
