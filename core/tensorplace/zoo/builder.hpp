// Builds a training iteration from a network's layer shapes: the forward layers as a model
// declares them, then (in finish()) the backward pass in reverse, each parameter's gradient
// followed by its SGD update, as a framework schedules one iteration. fp32, NCHW.
//
// Forward activations a backward kernel needs stay live until it runs (a convolution's input for
// its filter gradient, a ReLU's output, batch norm's input and saved statistics ...), so peak
// live bytes come out of the schedule as they do in a framework without recomputation.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tensorplace/graph.hpp"

namespace sysgym::tensorplace {

// "PREFIX<a>" and "PREFIX<a>.<b>": layer names built by appending (g++ 12 warns, wrongly, about
// "literal" + std::to_string(...), its bug 105329).
std::string layer_name(std::string_view prefix, std::size_t a);
std::string layer_name(std::string_view prefix, std::size_t a, std::string_view separator,
                       std::size_t b);

// An activation: its tensor and its shape per sample.
struct Act {
  std::uint32_t tensor = 0;
  std::uint32_t channels = 0;
  std::uint32_t height = 0;
  std::uint32_t width = 0;
  std::uint64_t elements() const { return std::uint64_t{channels} * height * width; }
};

class GraphBuilder {
 public:
  GraphBuilder(std::string model, std::uint32_t batch);

  Act input(std::uint32_t channels, std::uint32_t height, std::uint32_t width);
  Act conv(const Act& x, std::uint32_t out_channels, std::uint32_t kernel_h, std::uint32_t kernel_w,
           std::uint32_t stride, std::uint32_t pad_h, std::uint32_t pad_w, bool bias,
           const std::string& name);
  Act conv(const Act& x, std::uint32_t out_channels, std::uint32_t kernel, std::uint32_t stride,
           std::uint32_t pad, bool bias, const std::string& name) {
    return conv(x, out_channels, kernel, kernel, stride, pad, pad, bias, name);
  }
  Act batchnorm(const Act& x, const std::string& name);
  Act relu(const Act& x, const std::string& name);
  Act maxpool(const Act& x, std::uint32_t kernel, std::uint32_t stride, std::uint32_t pad,
              const std::string& name);
  Act avgpool(const Act& x, std::uint32_t kernel, std::uint32_t stride, std::uint32_t pad,
              const std::string& name);
  Act global_avgpool(const Act& x, const std::string& name);
  Act fc(const Act& x, std::uint32_t outputs, const std::string& name);
  Act add(const Act& a, const Act& b, const std::string& name);
  Act concat(const std::vector<Act>& parts, const std::string& name);
  // Softmax cross-entropy against the labels: the last forward layer.
  void loss(const Act& logits);

  // The backward pass and the updates; the graph. The builder is spent.
  Graph finish();

  // Parameter elements declared so far (weights, biases, batch-norm scales and shifts).
  std::uint64_t parameter_elements() const { return parameter_elements_; }

 private:
  // One forward layer, remembered for its backward kernels.
  struct Step {
    std::string kind;
    std::string name;
    std::vector<Act> inputs;
    Act output;
    std::vector<std::uint32_t> params;  // conv, fc: weight (bias); batchnorm: scale, shift
    std::vector<std::uint32_t> saved;   // batchnorm: mean, inverse std; loss: probabilities
    double flops = 0;                   // forward
  };

  std::uint32_t tensor(const std::string& name, std::uint64_t elements, Role role);
  std::uint32_t parameter(const std::string& name, std::uint64_t elements);
  Act activation(const std::string& name, std::uint32_t c, std::uint32_t h, std::uint32_t w);
  void kernel(const std::string& name, const std::string& op, std::vector<std::uint32_t> inputs,
              std::vector<std::uint32_t> outputs, double flops);
  Act pool(const Act& x, std::uint32_t kernel, std::uint32_t stride, std::uint32_t pad,
           const std::string& name, const std::string& op);
  // The gradient of activation tensor t, summing the contributions of its readers when several.
  std::uint32_t gradient_of(std::uint32_t t, const std::string& name);
  void contribute(std::uint32_t t, std::uint32_t gradient);
  void backward(const Step& step);
  void update(std::uint32_t param, std::uint32_t gradient);

  std::string model_;
  std::uint32_t batch_;
  std::vector<Tensor> tensors_;
  std::vector<Kernel> kernels_;
  std::vector<Step> steps_;
  std::vector<std::vector<std::uint32_t>> contributions_;  // per tensor: gradient tensors
  std::uint64_t parameter_elements_ = 0;
  std::uint32_t labels_ = 0;
};

}  // namespace sysgym::tensorplace
