#include "agents/mlp.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "base/error.hpp"

namespace sysgym::agents {
namespace {

std::string describe_sizes(const std::vector<int>& sizes) {
  std::string text = "[";
  for (std::size_t i = 0; i < sizes.size() && i < 8; ++i)
    text += (i > 0 ? ", " : "") + std::to_string(sizes[i]);
  return text + (sizes.size() > 8 ? ", ...]" : "]");
}

}  // namespace

Mlp::Mlp(const std::vector<int>& sizes, Rng& rng) : sizes_(sizes) {
  if (sizes.size() < 2) throw ConfigError("a network needs at least an input and an output size");
  for (int s : sizes) {
    if (s < 1 || s > 1 << 16) {
      throw ConfigError("layer size " + std::to_string(s) + " is outside [1, 65536]");
    }
  }
  std::uint64_t parameters = 0;
  for (std::size_t l = 0; l + 1 < sizes.size(); ++l)
    parameters +=
        static_cast<std::uint64_t>(sizes[l] + 1) * static_cast<std::uint64_t>(sizes[l + 1]);
  if (parameters > kMaxParameters) {
    throw ConfigError("a network of sizes " + describe_sizes(sizes) + " has " +
                      std::to_string(parameters) + " parameters, more than the " +
                      std::to_string(kMaxParameters) + " sysgym allocates");
  }
  for (std::size_t l = 0; l + 1 < sizes.size(); ++l) {
    DenseLayer layer;
    const int in = sizes[l], out = sizes[l + 1];
    // He-uniform for ReLU layers; the output layer is scaled down so initial values and
    // logits start near zero.
    const bool last = l + 2 == sizes.size();
    const double limit = std::sqrt(6.0 / in) * (last ? 0.1 : 1.0);
    layer.w.resize(out, in);
    for (int c = 0; c < in; ++c)
      for (int r = 0; r < out; ++r)
        layer.w(r, c) = (2 * rng.uniform() - 1) * limit;
    layer.b = Eigen::VectorXd::Zero(out);
    layer.grad_w = Eigen::MatrixXd::Zero(out, in);
    layer.grad_b = Eigen::VectorXd::Zero(out);
    layers_.push_back(std::move(layer));
  }
}

std::size_t Mlp::parameter_count() const {
  std::size_t n = 0;
  for (const DenseLayer& l : layers_)
    n += static_cast<std::size_t>(l.w.size() + l.b.size());
  return n;
}

void Mlp::append_parameters(std::vector<double>& out) const {
  for (const DenseLayer& l : layers_) {
    out.insert(out.end(), l.w.data(), l.w.data() + l.w.size());
    out.insert(out.end(), l.b.data(), l.b.data() + l.b.size());
  }
}

std::span<const double> Mlp::read_parameters(std::span<const double> in) {
  if (in.size() < parameter_count()) throw Error("a network's parameters are cut short");
  for (DenseLayer& l : layers_) {
    std::copy_n(in.begin(), l.w.size(), l.w.data());
    in = in.subspan(static_cast<std::size_t>(l.w.size()));
    std::copy_n(in.begin(), l.b.size(), l.b.data());
    in = in.subspan(static_cast<std::size_t>(l.b.size()));
  }
  return in;
}

const Eigen::MatrixXd& Mlp::forward(const Eigen::MatrixXd& x) {
  activations_.resize(layers_.size() + 1);
  activations_[0] = x;
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    Eigen::MatrixXd z = layers_[l].w * activations_[l];
    z.colwise() += layers_[l].b;
    if (l + 1 < layers_.size()) z = z.cwiseMax(0.0);
    activations_[l + 1] = std::move(z);
  }
  return activations_.back();
}

Eigen::MatrixXd Mlp::predict(const Eigen::MatrixXd& x) const {
  Eigen::MatrixXd a = x;
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    Eigen::MatrixXd z = layers_[l].w * a;
    z.colwise() += layers_[l].b;
    if (l + 1 < layers_.size()) z = z.cwiseMax(0.0);
    a = std::move(z);
  }
  return a;
}

void Mlp::backward(const Eigen::MatrixXd& grad_output) {
  Eigen::MatrixXd delta = grad_output;
  for (std::size_t l = layers_.size(); l-- > 0;) {
    DenseLayer& layer = layers_[l];
    layer.grad_w.noalias() = delta * activations_[l].transpose();
    layer.grad_b = delta.rowwise().sum();
    if (l == 0) break;
    Eigen::MatrixXd back = layer.w.transpose() * delta;
    // ReLU derivative: the gradient passes where the layer's input was positive.
    delta = back.cwiseProduct((activations_[l].array() > 0.0).cast<double>().matrix());
  }
}

void Mlp::act(std::span<const double> x, std::vector<double>& out) const {
  std::vector<double> a(x.begin(), x.end()), z;
  for (std::size_t l = 0; l < layers_.size(); ++l) {
    const DenseLayer& layer = layers_[l];
    z.assign(static_cast<std::size_t>(layer.w.rows()), 0.0);
    for (Eigen::Index r = 0; r < layer.w.rows(); ++r) {
      double sum = layer.b[r];
      for (Eigen::Index c = 0; c < layer.w.cols(); ++c)
        sum += layer.w(r, c) * a[static_cast<std::size_t>(c)];
      z[static_cast<std::size_t>(r)] = l + 1 < layers_.size() && sum < 0.0 ? 0.0 : sum;
    }
    a.swap(z);
  }
  out = std::move(a);
}

nlohmann::json Mlp::to_json() const {
  nlohmann::json layers = nlohmann::json::array();
  for (const DenseLayer& layer : layers_) {
    nlohmann::json rows = nlohmann::json::array();
    for (Eigen::Index r = 0; r < layer.w.rows(); ++r) {
      std::vector<double> row(static_cast<std::size_t>(layer.w.cols()));
      for (Eigen::Index c = 0; c < layer.w.cols(); ++c)
        row[static_cast<std::size_t>(c)] = layer.w(r, c);
      rows.push_back(std::move(row));
    }
    layers.push_back({{"w", std::move(rows)},
                      {"b", std::vector<double>(layer.b.data(), layer.b.data() + layer.b.size())}});
  }
  return {{"sizes", sizes_}, {"layers", std::move(layers)}};
}

namespace {

std::vector<double> numbers(const nlohmann::json& j, std::size_t expected,
                            const std::string& what) {
  if (!j.is_array() || j.size() != expected) {
    throw ConfigError(what + " should be a list of " + std::to_string(expected) + " numbers");
  }
  std::vector<double> out;
  out.reserve(expected);
  for (const nlohmann::json& v : j) {
    if (!v.is_number()) throw ConfigError(what + " holds a value that is not a number");
    out.push_back(v.get<double>());
  }
  return out;
}

}  // namespace

Mlp Mlp::from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("sizes") || !j.contains("layers")) {
    throw ConfigError("a network needs \"sizes\" and \"layers\"");
  }
  const nlohmann::json& listed = j.at("sizes");
  const nlohmann::json& layers = j.at("layers");
  if (!listed.is_array() || !layers.is_array() || layers.size() + 1 != listed.size()) {
    throw ConfigError("the network lists " + std::to_string(layers.size()) + " layers for " +
                      std::to_string(listed.size()) + " sizes (one layer between each two sizes)");
  }
  std::vector<int> sizes;
  for (const nlohmann::json& s : listed) {
    if (!s.is_number_integer() || s.get<std::int64_t>() < 1 || s.get<std::int64_t>() > 1 << 16) {
      throw ConfigError("network sizes must be integers in [1, 65536], got " + s.dump());
    }
    sizes.push_back(s.get<int>());
  }
  // Weights are checked against the sizes only after allocating them, so the sizes are bounded
  // (by the constructor) before a file can make sysgym allocate.
  Rng unused(0);
  Mlp mlp(sizes, unused);
  for (std::size_t l = 0; l < layers.size(); ++l) {
    DenseLayer& layer = mlp.layers_[l];
    const std::string where = "layer " + std::to_string(l);
    const auto rows = static_cast<std::size_t>(layer.w.rows());
    const auto cols = static_cast<std::size_t>(layer.w.cols());
    const nlohmann::json& w = layers[l].value("w", nlohmann::json());
    if (!w.is_array() || w.size() != rows) {
      throw ConfigError(where + " weights should have " + std::to_string(rows) + " rows");
    }
    for (std::size_t r = 0; r < rows; ++r) {
      const std::vector<double> row = numbers(w[r], cols, where + " row " + std::to_string(r));
      for (std::size_t c = 0; c < cols; ++c)
        layer.w(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = row[c];
    }
    const std::vector<double> b =
        numbers(layers[l].value("b", nlohmann::json()), rows, where + " biases");
    for (std::size_t r = 0; r < rows; ++r)
      layer.b[static_cast<Eigen::Index>(r)] = b[r];
  }
  return mlp;
}

}  // namespace sysgym::agents
