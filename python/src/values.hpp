// Python values in and out of core: actions checked against their space with numpy's dtypes and
// shapes, observations and frames as numpy arrays, infos as dicts.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <span>
#include <string>
#include <vector>

#include "env/env.hpp"
#include "env/frame.hpp"
#include "env/space.hpp"

namespace sysgym::python {

namespace py = pybind11;

// Reads `action` (a Python int, a numpy scalar or anything numpy.asarray takes) as a value of
// `space`'s shape into `out` (flat, space.flat_size() values). Throws InvalidActionError (a
// ValueError in Python) naming the space for a wrong type, dtype or shape; the values are
// checked by Env::step (or Space::check), which names the element at fault.
void read_action(py::handle action, const Space& space, std::span<double> out);

// Reads `actions`, one row per env (shape (count, *space.shape), or (count,) for Discrete),
// into `out`; InvalidActionError names the space and the env's row.
void read_actions(py::handle actions, const Space& space, std::size_t count, std::span<double> out);

// A value of `space` from its flat values: an int for Discrete, a float32 array for Box, an int64
// array otherwise (as a space's sample()).
py::object action_value(const Space& space, std::span<const double> flat);

// The Python shape of a value of `space`: () for Discrete, the space's shape otherwise.
std::vector<py::ssize_t> value_shape(const Space& space);

// A new uninitialised C-order numpy array of `dims`, made by numpy's C API directly: pybind11's
// array constructors cost several times more, which a vector step with one array per info key
// pays a dozen times.
template <typename T>
py::array_t<T> new_array(std::span<const py::ssize_t> dims) {
  auto& api = py::detail::npy_api::get();
  PyObject* descr = api.PyArray_DescrFromType_(py::detail::npy_format_descriptor<T>::value);
  if (descr == nullptr) throw py::error_already_set();
  // NewFromDescr takes the descr's reference.
  PyObject* array =
      api.PyArray_NewFromDescr_(api.PyArray_Type_, descr, static_cast<int>(dims.size()),
                                dims.data(), nullptr, nullptr, 0, nullptr);
  if (array == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::array_t<T>>(array);
}
template <typename T>
py::array_t<T> new_array(py::ssize_t size) {
  const py::ssize_t dims[] = {size};
  return new_array<T>(dims);
}

// A writable 1-D view of `size` values at `data` inside `base` (which it keeps alive).
template <typename T>
py::array_t<T> view_of(const py::array& base, T* data, py::ssize_t size) {
  auto& api = py::detail::npy_api::get();
  PyObject* descr = api.PyArray_DescrFromType_(py::detail::npy_format_descriptor<T>::value);
  if (descr == nullptr) throw py::error_already_set();
  const py::ssize_t dims[] = {size};
  PyObject* array = api.PyArray_NewFromDescr_(api.PyArray_Type_, descr, 1, dims, nullptr, data,
                                              py::detail::npy_api::NPY_ARRAY_WRITEABLE_, nullptr);
  if (array == nullptr) throw py::error_already_set();
  py::detail::array_proxy(array)->base = base.inc_ref().ptr();
  return py::reinterpret_steal<py::array_t<T>>(array);
}

// A new numpy float32 array of `shape` holding a copy of `values`.
py::array_t<float> float_array(std::span<const float> values, std::span<const py::ssize_t> shape);

// Info keys interned once per env, so a step's dict costs a float per key.
class InfoKeys {
 public:
  explicit InfoKeys(const std::vector<std::string>& keys);
  py::dict dict(std::span<const double> values) const;
  // One numpy array of `count` values per key from row-major rows of keys().size() values.
  py::dict columns(std::span<const double> rows, std::size_t count) const;
  // The parts of columns(), for arrays made once and refilled every step: a (keys, count) block
  // whose rows are the keys' columns, and a dict of views of those rows.
  void transpose(std::span<const double> rows, std::size_t count, double* block) const;
  py::dict column_views(py::array_t<double>& block, std::size_t count) const;
  std::size_t size() const { return keys_.size(); }

 private:
  std::vector<py::str> keys_;
};

// The env's frame arrays (Env::frame) as numpy copies, by name.
py::dict frame_dict(const Frame& frame);

}  // namespace sysgym::python
