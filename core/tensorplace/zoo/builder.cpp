#include "tensorplace/zoo/builder.hpp"

#include "base/error.hpp"

namespace sysgym::tensorplace {

namespace {

constexpr std::uint64_t kFloatBytes = 4;

// A tensor's fp32 elements, for FLOP counts.
double elements_of(const Tensor& t) {
  return static_cast<double>(t.bytes) / static_cast<double>(kFloatBytes);
}

std::uint32_t out_size(std::uint32_t in, std::uint32_t kernel, std::uint32_t stride,
                       std::uint32_t pad, const std::string& name) {
  if (in + 2 * pad < kernel)
    throw ConfigError(name + ": a " + std::to_string(kernel) + "-wide window does not fit " +
                      std::to_string(in) + " pixels");
  return (in + 2 * pad - kernel) / stride + 1;
}

}  // namespace

std::string layer_name(std::string_view prefix, std::size_t a) {
  std::string out(prefix);
  out += std::to_string(a);
  return out;
}

std::string layer_name(std::string_view prefix, std::size_t a, std::string_view separator,
                       std::size_t b) {
  std::string out = layer_name(prefix, a);
  out += separator;
  out += std::to_string(b);
  return out;
}

GraphBuilder::GraphBuilder(std::string model, std::uint32_t batch)
    : model_(std::move(model)), batch_(batch) {
  if (batch_ == 0) throw ConfigError(model_ + ": the batch size must be at least 1");
}

std::uint32_t GraphBuilder::tensor(const std::string& name, std::uint64_t elements, Role role) {
  tensors_.push_back({name, elements * kFloatBytes, role});
  contributions_.emplace_back();
  return static_cast<std::uint32_t>(tensors_.size() - 1);
}

std::uint32_t GraphBuilder::parameter(const std::string& name, std::uint64_t elements) {
  parameter_elements_ += elements;
  return tensor(name, elements, Role::kParameter);
}

Act GraphBuilder::activation(const std::string& name, std::uint32_t c, std::uint32_t h,
                             std::uint32_t w) {
  Act a{0, c, h, w};
  a.tensor = tensor(name, a.elements() * batch_, Role::kIntermediate);
  return a;
}

void GraphBuilder::kernel(const std::string& name, const std::string& op,
                          std::vector<std::uint32_t> inputs, std::vector<std::uint32_t> outputs,
                          double flops) {
  kernels_.push_back({name, op, std::move(inputs), std::move(outputs), flops, {}});
}

Act GraphBuilder::input(std::uint32_t channels, std::uint32_t height, std::uint32_t width) {
  Act x{0, channels, height, width};
  x.tensor = tensor("data", x.elements() * batch_, Role::kIo);
  labels_ = tensor("labels", batch_, Role::kIo);
  return x;
}

Act GraphBuilder::conv(const Act& x, std::uint32_t out_channels, std::uint32_t kernel_h,
                       std::uint32_t kernel_w, std::uint32_t stride, std::uint32_t pad_h,
                       std::uint32_t pad_w, bool bias, const std::string& name) {
  const std::uint32_t h = out_size(x.height, kernel_h, stride, pad_h, name);
  const std::uint32_t w = out_size(x.width, kernel_w, stride, pad_w, name);
  Step s{"conv", name, {x}, activation(name, out_channels, h, w), {}, {}, 0};
  const std::uint64_t fan_in = std::uint64_t{x.channels} * kernel_h * kernel_w;
  s.params.push_back(parameter(name + ".w", fan_in * out_channels));
  if (bias) s.params.push_back(parameter(name + ".b", out_channels));
  s.flops = 2.0 * static_cast<double>(batch_) * static_cast<double>(s.output.elements()) *
            static_cast<double>(fan_in);
  std::vector<std::uint32_t> inputs = {x.tensor};
  inputs.insert(inputs.end(), s.params.begin(), s.params.end());
  kernel(name, "conv", inputs, {s.output.tensor}, s.flops);
  steps_.push_back(s);
  return s.output;
}

Act GraphBuilder::batchnorm(const Act& x, const std::string& name) {
  Step s{"batchnorm", name, {x}, activation(name, x.channels, x.height, x.width), {}, {}, 0};
  s.params = {parameter(name + ".gamma", x.channels), parameter(name + ".beta", x.channels)};
  s.saved = {tensor(name + ".mean", x.channels, Role::kIntermediate),
             tensor(name + ".invstd", x.channels, Role::kIntermediate)};
  s.flops = 4.0 * static_cast<double>(batch_ * x.elements());
  kernel(name, "batchnorm", {x.tensor, s.params[0], s.params[1]},
         {s.output.tensor, s.saved[0], s.saved[1]}, s.flops);
  steps_.push_back(s);
  return s.output;
}

Act GraphBuilder::relu(const Act& x, const std::string& name) {
  Step s{"relu", name, {x}, activation(name, x.channels, x.height, x.width), {}, {}, 0};
  s.flops = static_cast<double>(batch_ * x.elements());
  kernel(name, "relu", {x.tensor}, {s.output.tensor}, s.flops);
  steps_.push_back(s);
  return s.output;
}

Act GraphBuilder::pool(const Act& x, std::uint32_t k, std::uint32_t stride, std::uint32_t pad,
                       const std::string& name, const std::string& op) {
  const std::uint32_t h = out_size(x.height, k, stride, pad, name);
  const std::uint32_t w = out_size(x.width, k, stride, pad, name);
  Step s{op, name, {x}, activation(name, x.channels, h, w), {}, {}, 0};
  s.flops = static_cast<double>(batch_ * s.output.elements() * k * k);
  kernel(name, op, {x.tensor}, {s.output.tensor}, s.flops);
  steps_.push_back(s);
  return s.output;
}

Act GraphBuilder::maxpool(const Act& x, std::uint32_t k, std::uint32_t stride, std::uint32_t pad,
                          const std::string& name) {
  return pool(x, k, stride, pad, name, "maxpool");
}

Act GraphBuilder::avgpool(const Act& x, std::uint32_t k, std::uint32_t stride, std::uint32_t pad,
                          const std::string& name) {
  return pool(x, k, stride, pad, name, "avgpool");
}

Act GraphBuilder::global_avgpool(const Act& x, const std::string& name) {
  return pool(x, x.height, 1, 0, name, "avgpool");  // square maps in every zoo model
}

Act GraphBuilder::fc(const Act& x, std::uint32_t outputs, const std::string& name) {
  Step s{"fc", name, {x}, activation(name, outputs, 1, 1), {}, {}, 0};
  s.params = {parameter(name + ".w", x.elements() * outputs), parameter(name + ".b", outputs)};
  s.flops = 2.0 * static_cast<double>(batch_) * static_cast<double>(x.elements()) * outputs;
  kernel(name, "fc", {x.tensor, s.params[0], s.params[1]}, {s.output.tensor}, s.flops);
  steps_.push_back(s);
  return s.output;
}

Act GraphBuilder::add(const Act& a, const Act& b, const std::string& name) {
  if (a.elements() != b.elements()) throw ConfigError(name + ": adding maps of different shapes");
  Step s{"add", name, {a, b}, activation(name, a.channels, a.height, a.width), {}, {}, 0};
  s.flops = static_cast<double>(batch_ * a.elements());
  kernel(name, "add", {a.tensor, b.tensor}, {s.output.tensor}, s.flops);
  steps_.push_back(s);
  return s.output;
}

Act GraphBuilder::concat(const std::vector<Act>& parts, const std::string& name) {
  std::uint32_t channels = 0;
  std::vector<std::uint32_t> inputs;
  for (const Act& p : parts) {
    if (p.height != parts.front().height || p.width != parts.front().width)
      throw ConfigError(name + ": concatenating maps of different sizes");
    channels += p.channels;
    inputs.push_back(p.tensor);
  }
  Step s{
      "concat", name, parts, activation(name, channels, parts.front().height, parts.front().width),
      {},       {},   0};
  s.flops = static_cast<double>(batch_ * s.output.elements());
  kernel(name, "concat", inputs, {s.output.tensor}, s.flops);
  steps_.push_back(s);
  return s.output;
}

void GraphBuilder::loss(const Act& logits) {
  Step s{"loss", "loss", {logits}, {}, {}, {}, 0};
  s.output.tensor = tensor("loss", batch_, Role::kIo);
  s.saved = {tensor("loss.probabilities", batch_ * logits.elements(), Role::kIntermediate)};
  s.flops = 4.0 * static_cast<double>(batch_ * logits.elements());
  kernel("loss", "softmax_cross_entropy", {logits.tensor, labels_}, {s.output.tensor, s.saved[0]},
         s.flops);
  steps_.push_back(s);
}

void GraphBuilder::contribute(std::uint32_t t, std::uint32_t gradient) {
  if (tensors_[t].role == Role::kIntermediate) contributions_[t].push_back(gradient);
}

std::uint32_t GraphBuilder::gradient_of(std::uint32_t t, const std::string& name) {
  const std::vector<std::uint32_t> parts = contributions_[t];
  if (parts.size() == 1) return parts.front();
  const std::uint32_t sum =
      tensor("d:" + name + ".sum", tensors_[t].bytes / kFloatBytes, Role::kIntermediate);
  kernel("d:" + name + ".sum", "gradient_sum", parts, {sum},
         static_cast<double>(parts.size() - 1) * elements_of(tensors_[t]));
  return sum;
}

void GraphBuilder::update(std::uint32_t param, std::uint32_t gradient) {
  kernel("sgd:" + tensors_[param].name, "sgd", {param, gradient}, {param},
         2.0 * elements_of(tensors_[param]));
}

void GraphBuilder::backward(const Step& s) {
  if (s.kind == "loss") {
    const std::uint32_t d =
        tensor("d:" + tensors_[s.inputs[0].tensor].name,
               tensors_[s.inputs[0].tensor].bytes / kFloatBytes, Role::kIntermediate);
    kernel("loss.bwd", "softmax_cross_entropy_bwd", {s.saved[0], labels_}, {d},
           2.0 * elements_of(tensors_[d]));
    contribute(s.inputs[0].tensor, d);
    return;
  }
  if (contributions_[s.output.tensor].empty()) return;  // nothing downstream needs a gradient
  const std::uint32_t dy = gradient_of(s.output.tensor, s.name);
  // A map read by several layers gets one gradient from each: d:NAME, d:NAME.2, ...
  const auto grad = [this](const Act& x) {
    std::string name = "d:" + tensors_[x.tensor].name;
    if (const std::size_t n = contributions_[x.tensor].size(); n > 0)
      name += layer_name(".", n + 1);
    return tensor(name, tensors_[x.tensor].bytes / kFloatBytes, Role::kIntermediate);
  };
  const Act& x = s.inputs.front();
  const bool into_network = tensors_[x.tensor].role == Role::kIntermediate;
  if (s.kind == "conv" || s.kind == "fc") {
    if (into_network) {
      const std::uint32_t dx = grad(x);
      kernel(s.name + ".bwd_data", s.kind + "_bwd_data", {dy, s.params[0]}, {dx}, s.flops);
      contribute(x.tensor, dx);
    }
    std::vector<std::uint32_t> grads;
    for (std::uint32_t p : s.params)
      grads.push_back(
          tensor("d:" + tensors_[p].name, tensors_[p].bytes / kFloatBytes, Role::kIntermediate));
    kernel(s.name + ".bwd_filter", s.kind + "_bwd_filter", {dy, x.tensor}, grads, s.flops);
    for (std::size_t i = 0; i < grads.size(); ++i)
      update(s.params[i], grads[i]);
  } else if (s.kind == "batchnorm") {
    const std::uint32_t dx = grad(x);
    const std::uint32_t dgamma =
        tensor("d:" + tensors_[s.params[0]].name, x.channels, Role::kIntermediate);
    const std::uint32_t dbeta =
        tensor("d:" + tensors_[s.params[1]].name, x.channels, Role::kIntermediate);
    kernel(s.name + ".bwd", "batchnorm_bwd", {dy, x.tensor, s.params[0], s.saved[0], s.saved[1]},
           {dx, dgamma, dbeta}, 2.0 * s.flops);
    contribute(x.tensor, dx);
    update(s.params[0], dgamma);
    update(s.params[1], dbeta);
  } else if (s.kind == "relu") {
    const std::uint32_t dx = grad(x);
    kernel(s.name + ".bwd", "relu_bwd", {dy, s.output.tensor}, {dx}, s.flops);
    contribute(x.tensor, dx);
  } else if (s.kind == "maxpool" || s.kind == "avgpool") {
    const std::uint32_t dx = grad(x);
    std::vector<std::uint32_t> inputs = {dy};
    if (s.kind == "maxpool") inputs = {dy, x.tensor, s.output.tensor};
    kernel(s.name + ".bwd", s.kind + "_bwd", inputs, {dx}, s.flops);
    contribute(x.tensor, dx);
  } else if (s.kind == "add") {
    contribute(s.inputs[0].tensor, dy);
    contribute(s.inputs[1].tensor, dy);
  } else if (s.kind == "concat") {
    std::vector<std::uint32_t> dxs;
    for (const Act& part : s.inputs)
      dxs.push_back(grad(part));
    kernel(s.name + ".bwd", "concat_bwd", {dy}, dxs, s.flops);
    for (std::size_t i = 0; i < dxs.size(); ++i)
      contribute(s.inputs[i].tensor, dxs[i]);
  }
}

Graph GraphBuilder::finish() {
  if (steps_.empty() || steps_.back().kind != "loss")
    throw ConfigError(model_ + ": a model ends with loss()");
  for (std::size_t i = steps_.size(); i-- > 0;)
    backward(steps_[i]);
  return Graph(model_, batch_, std::move(tensors_), std::move(kernels_));
}

}  // namespace sysgym::tensorplace
