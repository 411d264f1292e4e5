#include "values.hpp"

#include <algorithm>
#include <cstring>
#include <variant>

#include "base/error.hpp"

namespace sysgym::python {
namespace {

std::string short_repr(py::handle value) {
  std::string text = py::repr(value).cast<std::string>();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

std::string shape_text(const std::vector<py::ssize_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::vector<py::ssize_t> shape_of(const py::array& array) {
  return {array.shape(), array.shape() + array.ndim()};
}

[[noreturn]] void refuse(const Space& space, const std::string& what, py::handle value,
                         const std::string& reason) {
  throw InvalidActionError(what + " " + short_repr(value) + " is not in " + space.to_string() +
                           ": " + reason);
}

bool discrete_kind(const Space& space) {
  return space.kind() != SpaceKind::kBox;
}

// numpy.asarray(value) with its dtype checked against the space's kind of scalar.
py::array as_checked_array(py::handle value, const Space& space, const std::string& what) {
  py::array array = py::array::ensure(value);
  if (!array) {
    PyErr_Clear();
    refuse(space, what, value, "expected a number or an array of numbers");
  }
  const char kind = array.dtype().kind();
  const bool integer = kind == 'i' || kind == 'u' || kind == 'b';
  if (discrete_kind(space) ? !integer : !(integer || kind == 'f')) {
    refuse(space, what, value,
           std::string(discrete_kind(space) ? "expected integers" : "expected numbers") +
               ", got dtype " + py::str(array.dtype()).cast<std::string>());
  }
  return array;
}

template <typename T>
bool copy_as(const py::array& array, int type_num, std::span<double> out) {
  if (type_num != py::detail::npy_format_descriptor<T>::value) return false;
  const T* data = static_cast<const T*>(array.data());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<double>(data[i]);
  return true;
}

// The dtypes agents hand over, read in place from C-order arrays (numpy's own conversion to
// float64 costs more than a fast env's step); anything else through that conversion.
void copy_values(const py::array& array, std::span<double> out) {
  const auto* proxy = py::detail::array_proxy(array.ptr());
  const int type_num = py::detail::array_descriptor_proxy(proxy->descr)->type_num;
  if ((proxy->flags & py::detail::npy_api::NPY_ARRAY_C_CONTIGUOUS_) != 0 &&
      (copy_as<std::int64_t>(array, type_num, out) || copy_as<double>(array, type_num, out) ||
       copy_as<float>(array, type_num, out) || copy_as<std::int32_t>(array, type_num, out) ||
       copy_as<std::int8_t>(array, type_num, out) || copy_as<std::uint8_t>(array, type_num, out) ||
       copy_as<bool>(array, type_num, out))) {
    return;
  }
  const auto doubles =
      py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(array);
  std::memcpy(out.data(), doubles.data(), out.size_bytes());
}

bool shape_is(const py::array& array, const std::vector<py::ssize_t>& shape) {
  return static_cast<std::size_t>(array.ndim()) == shape.size() &&
         std::equal(shape.begin(), shape.end(), array.shape());
}

}  // namespace

py::object action_value(const Space& space, std::span<const double> flat) {
  if (space.kind() == SpaceKind::kDiscrete) return py::int_(static_cast<long long>(flat[0]));
  const std::vector<py::ssize_t> shape = value_shape(space);
  if (space.kind() == SpaceKind::kBox) {
    py::array_t<float> out(shape);
    float* data = out.mutable_data();
    for (std::size_t i = 0; i < flat.size(); ++i)
      data[i] = static_cast<float>(flat[i]);
    return out;
  }
  py::array_t<std::int64_t> out(shape);
  std::int64_t* data = out.mutable_data();
  for (std::size_t i = 0; i < flat.size(); ++i)
    data[i] = static_cast<std::int64_t>(flat[i]);
  return out;
}

std::vector<py::ssize_t> value_shape(const Space& space) {
  if (space.kind() == SpaceKind::kDiscrete) return {};
  if (space.kind() == SpaceKind::kDict) return {static_cast<py::ssize_t>(space.flat_size())};
  return {space.shape().begin(), space.shape().end()};
}

void read_action(py::handle action, const Space& space, std::span<double> out) {
  if (space.kind() == SpaceKind::kDiscrete) {
    // The common case first: a Python int (numpy integers take the array path).
    if (PyLong_Check(action.ptr())) {
      int overflow = 0;
      const long long value = PyLong_AsLongLongAndOverflow(action.ptr(), &overflow);
      if (overflow != 0) refuse(space, "action", action, "out of range");
      out[0] = static_cast<double>(value);
      return;
    }
    if (PyFloat_Check(action.ptr())) refuse(space, "action", action, "expected an integer");
  }
  const py::array array = as_checked_array(action, space, "action");
  const std::vector<py::ssize_t> expected = value_shape(space);
  const bool one_of_one = space.kind() == SpaceKind::kDiscrete && array.ndim() == 1 &&
                          array.shape(0) == 1;  // [a]: what many agents hand a Discrete env
  if (!shape_is(array, expected) && !one_of_one) {
    refuse(space, "action", action,
           "expected shape " + shape_text(expected) + ", got " + shape_text(shape_of(array)));
  }
  copy_values(array, out);
}

void read_actions(py::handle actions, const Space& space, std::size_t count,
                  std::span<double> out) {
  const py::array array = as_checked_array(actions, space, "actions");
  std::vector<py::ssize_t> expected = value_shape(space);
  expected.insert(expected.begin(), static_cast<py::ssize_t>(count));
  if (!shape_is(array, expected)) {
    refuse(space, "actions", actions,
           "expected one row per env, shape " + shape_text(expected) + ", got " +
               shape_text(shape_of(array)));
  }
  copy_values(array, out);
}

py::array_t<float> float_array(std::span<const float> values, std::span<const py::ssize_t> shape) {
  py::array_t<float> array = new_array<float>(shape);
  std::memcpy(array.mutable_data(), values.data(), values.size_bytes());
  return array;
}

InfoKeys::InfoKeys(const std::vector<std::string>& keys) {
  keys_.reserve(keys.size());
  for (const std::string& key : keys)
    keys_.push_back(py::reinterpret_steal<py::str>(PyUnicode_InternFromString(key.c_str())));
}

py::dict InfoKeys::dict(std::span<const double> values) const {
  // Presized: a dict grown key by key resizes twice on the way to memtier's 14 keys.
  auto out =
      py::reinterpret_steal<py::dict>(_PyDict_NewPresized(static_cast<py::ssize_t>(keys_.size())));
  if (!out) throw py::error_already_set();
  for (std::size_t i = 0; i < keys_.size(); ++i) {
    const auto value = py::reinterpret_steal<py::object>(PyFloat_FromDouble(values[i]));
    if (!value || PyDict_SetItem(out.ptr(), keys_[i].ptr(), value.ptr()) != 0)
      throw py::error_already_set();
  }
  return out;
}

py::dict InfoKeys::columns(std::span<const double> rows, std::size_t count) const {
  // One block and each key's row of it as a view: a view costs about half an array of its own.
  const py::ssize_t dims[] = {static_cast<py::ssize_t>(keys_.size()),
                              static_cast<py::ssize_t>(count)};
  py::array_t<double> block = new_array<double>(dims);
  transpose(rows, count, block.mutable_data());
  return column_views(block, count);
}

void InfoKeys::transpose(std::span<const double> rows, std::size_t count, double* block) const {
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t k = 0; k < keys_.size(); ++k)
      block[k * count + i] = rows[i * keys_.size() + k];
}

py::dict InfoKeys::column_views(py::array_t<double>& block, std::size_t count) const {
  auto out =
      py::reinterpret_steal<py::dict>(_PyDict_NewPresized(static_cast<py::ssize_t>(keys_.size())));
  if (!out) throw py::error_already_set();
  double* data = block.mutable_data();
  for (std::size_t k = 0; k < keys_.size(); ++k) {
    const py::array_t<double> column =
        view_of<double>(block, data + k * count, static_cast<py::ssize_t>(count));
    if (PyDict_SetItem(out.ptr(), keys_[k].ptr(), column.ptr()) != 0) throw py::error_already_set();
  }
  return out;
}

py::dict frame_dict(const Frame& frame) {
  py::dict out;
  for (const FrameArray& array : frame) {
    std::visit(
        [&](auto values) {
          using T = typename decltype(values)::value_type;
          auto copy = new_array<std::remove_const_t<T>>(static_cast<py::ssize_t>(values.size()));
          std::memcpy(copy.mutable_data(), values.data(), values.size_bytes());
          out[py::str(array.name)] = std::move(copy);
        },
        array.values);
  }
  return out;
}

}  // namespace sysgym::python
