#include "tensorplace/graph.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "base/error.hpp"
#include "base/names.hpp"
#include "base/quote.hpp"

namespace sysgym::tensorplace {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
constexpr const char* kRoleNames[] = {"intermediate", "parameter", "constant", "io"};

std::string kernel_text(const Kernel& k, std::uint32_t index) {
  return "kernel " + quote(k.name) + " (#" + std::to_string(index) + ")";
}

void check_tensors(const std::vector<Tensor>& tensors) {
  std::unordered_set<std::string> seen;
  for (const Tensor& t : tensors) {
    if (t.name.empty()) throw ConfigError("a tensor has an empty name");
    if (!seen.insert(t.name).second)
      throw ConfigError("tensor " + quote(t.name) + " is defined twice");
    if (t.bytes == 0) throw ConfigError("tensor " + quote(t.name) + " has 0 bytes");
    if (!t.fast_allowed && !t.slow_allowed)
      throw ConfigError("tensor " + quote(t.name) +
                        " may live in no pool (allow fast, slow or both)");
  }
}

void check_kernel(const Kernel& k, std::uint32_t index, std::size_t tensor_count) {
  if (k.name.empty()) throw ConfigError("kernel #" + std::to_string(index) + " has an empty name");
  for (const std::vector<std::uint32_t>* list : {&k.inputs, &k.outputs}) {
    for (std::uint32_t t : *list) {
      if (t >= tensor_count)
        throw ConfigError(kernel_text(k, index) + " names tensor #" + std::to_string(t) + ", of " +
                          std::to_string(tensor_count));
    }
  }
  if (!std::isfinite(k.flops) || k.flops < 0)
    throw ConfigError(kernel_text(k, index) + ": flops must be a finite number >= 0");
  if (k.times.empty()) return;
  if (k.operand_count() > kMaxTableOperands) {
    throw ConfigError(kernel_text(k, index) + " has " + std::to_string(k.operand_count()) +
                      " operands: a time table takes at most " + std::to_string(kMaxTableOperands) +
                      " (use the roofline model)");
  }
  const std::size_t expected = std::size_t{1} << k.operand_count();
  if (k.times.size() != expected) {
    throw ConfigError(kernel_text(k, index) + ": its time table has " +
                      std::to_string(k.times.size()) + " entries, " + std::to_string(expected) +
                      " expected (one per placement of its " + std::to_string(k.operand_count()) +
                      " operands)");
  }
  for (double t : k.times) {
    if (!std::isfinite(t) || t < 0)
      throw ConfigError(kernel_text(k, index) + ": times must be finite numbers >= 0");
  }
}

}  // namespace

const char* role_name(Role role) {
  return kRoleNames[static_cast<int>(role)];
}

Role parse_role(const std::string& text, const std::string& context) {
  const std::vector<std::string> names(std::begin(kRoleNames), std::end(kRoleNames));
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == text) return static_cast<Role>(i);
  }
  throw UnknownNameError(context + ": " + unknown_name_message("role", text, names));
}

std::uint64_t Tensor::allocated_bytes() const {
  return (bytes + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment;
}

std::uint32_t Kernel::operand(std::size_t i) const {
  return i < inputs.size() ? inputs[i] : outputs[i - inputs.size()];
}

Graph::Graph(std::string model, std::uint32_t batch, std::vector<Tensor> tensors,
             std::vector<Kernel> kernels)
    : model_(std::move(model)),
      batch_(batch),
      tensors_(std::move(tensors)),
      kernels_(std::move(kernels)),
      lifetimes_(tensors_.size()),
      users_(tensors_.size()),
      born_(kernels_.size()),
      dying_(kernels_.size()) {
  if (kernels_.empty()) throw ConfigError("the graph has no kernels");
  check_tensors(tensors_);
  const auto last_kernel = static_cast<std::uint32_t>(kernels_.size() - 1);
  std::vector<std::uint32_t> producer(tensors_.size(), kNone);
  for (std::uint32_t k = 0; k <= last_kernel; ++k) {
    const Kernel& kernel = kernels_[k];
    check_kernel(kernel, k, tensors_.size());
    for (std::uint32_t t : kernel.inputs) {
      const Tensor& tensor = tensors_[t];
      if (tensor.role == Role::kIntermediate && producer[t] == kNone) {
        throw ConfigError(kernel_text(kernel, k) + " reads intermediate " + quote(tensor.name) +
                          " before any kernel produces it: kernels must be listed in execution "
                          "order, and the graph may not have a cycle");
      }
    }
    for (std::uint32_t t : kernel.outputs) {
      const Tensor& tensor = tensors_[t];
      if (tensor.role == Role::kConstant)
        throw ConfigError(kernel_text(kernel, k) + " writes constant " + quote(tensor.name));
      if (tensor.role == Role::kIntermediate && producer[t] != kNone) {
        throw ConfigError(kernel_text(kernel, k) + " writes intermediate " + quote(tensor.name) +
                          ", already produced by " +
                          kernel_text(kernels_[producer[t]], producer[t]));
      }
      if (producer[t] == kNone) producer[t] = k;
    }
    for (std::size_t i = 0; i < kernel.operand_count(); ++i) {
      std::vector<std::uint32_t>& u = users_[kernel.operand(i)];
      if (u.empty() || u.back() != k) u.push_back(k);
    }
  }
  for (std::uint32_t t = 0; t < tensors_.size(); ++t) {
    if (tensors_[t].role != Role::kIntermediate) {
      lifetimes_[t] = {0, last_kernel};
      born_[0].push_back(t);
      continue;
    }
    if (producer[t] == kNone)
      throw ConfigError("intermediate " + quote(tensors_[t].name) + " is never produced");
    lifetimes_[t] = {producer[t], users_[t].back()};
    born_[producer[t]].push_back(t);
    dying_[users_[t].back()].push_back(t);
  }
}

std::vector<std::uint64_t> Graph::live_bytes() const {
  // Difference array over kernels: + at birth, - after death.
  std::vector<std::int64_t> delta(kernels_.size() + 1, 0);
  for (std::uint32_t t = 0; t < tensors_.size(); ++t) {
    const auto bytes = static_cast<std::int64_t>(tensors_[t].allocated_bytes());
    delta[lifetimes_[t].first] += bytes;
    delta[lifetimes_[t].last + 1] -= bytes;
  }
  std::vector<std::uint64_t> live(kernels_.size());
  std::int64_t running = 0;
  for (std::size_t k = 0; k < kernels_.size(); ++k) {
    running += delta[k];
    live[k] = static_cast<std::uint64_t>(running);
  }
  return live;
}

std::uint64_t Graph::peak_live_bytes() const {
  const std::vector<std::uint64_t> live = live_bytes();
  return *std::max_element(live.begin(), live.end());
}

std::uint64_t Graph::working_set_bytes(std::uint32_t k) const {
  std::vector<std::uint32_t> operands = kernels_[k].inputs;
  operands.insert(operands.end(), kernels_[k].outputs.begin(), kernels_[k].outputs.end());
  std::sort(operands.begin(), operands.end());
  operands.erase(std::unique(operands.begin(), operands.end()), operands.end());
  std::uint64_t bytes = 0;
  for (std::uint32_t t : operands)
    bytes += tensors_[t].allocated_bytes();
  return bytes;
}

std::uint64_t Graph::bytes_of(Role role) const {
  std::uint64_t bytes = 0;
  for (const Tensor& t : tensors_)
    bytes += t.role == role ? t.bytes : 0;
  return bytes;
}

double Graph::total_flops() const {
  double flops = 0;
  for (const Kernel& k : kernels_)
    flops += k.flops;
  return flops;
}

}  // namespace sysgym::tensorplace
