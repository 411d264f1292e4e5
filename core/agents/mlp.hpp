// A multilayer perceptron (ReLU hidden layers, linear output) with batched forward and
// backward passes on Eigen matrices, for training, and a one-observation forward pass in plain
// loops, for acting.
//
// Why two forward passes: Eigen's matrix products pick their blocking and vector width from the
// machine, so the same weights can give results that differ in the last bits natively and in
// WebAssembly. Acting must not: a policy file must choose the same action for the same
// observation in both builds. act() sums in one fixed order with no fused multiply-add (core is
// compiled with -ffp-contract=off), which IEEE 754 makes bit-identical everywhere.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "base/rng.hpp"

namespace sysgym::agents {

struct DenseLayer {
  Eigen::MatrixXd w;  // outputs x inputs
  Eigen::VectorXd b;
  Eigen::MatrixXd grad_w;  // gradients of the last backward()
  Eigen::VectorXd grad_b;
};

class Mlp {
 public:
  Mlp() = default;
  // sizes = {inputs, hidden..., outputs}; He-uniform weights (uniform draws only, so the same
  // seed gives the same network in every build), zero biases. Throws ConfigError.
  // Throws ConfigError for a size outside [1, 65536] or more than kMaxParameters in all.
  Mlp(const std::vector<int>& sizes, Rng& rng);
  // Weights and biases: 32 M parameters take 1 GiB with their gradients and Adam's moments.
  static constexpr std::uint64_t kMaxParameters = 32u << 20;

  int inputs() const { return sizes_.front(); }
  int outputs() const { return sizes_.back(); }
  const std::vector<int>& sizes() const { return sizes_; }
  std::size_t parameter_count() const;
  // Weights and biases as one flat list (layer by layer, w column-major, then b), to send the
  // network to other ranks; read_parameters takes parameter_count() values back from the front
  // of `in` and returns the rest.
  void append_parameters(std::vector<double>& out) const;
  std::span<const double> read_parameters(std::span<const double> in);

  // Batched forward: x is inputs x batch (one column per sample). Keeps the activations that
  // backward() needs.
  const Eigen::MatrixXd& forward(const Eigen::MatrixXd& x);
  // Forward without keeping activations (target networks, evaluation).
  Eigen::MatrixXd predict(const Eigen::MatrixXd& x) const;
  // Gradients of the loss for the last forward(), given dLoss/dOutput (outputs x batch).
  void backward(const Eigen::MatrixXd& grad_output);

  // One sample, in fixed summation order: identical in every build. out gets outputs() values.
  void act(std::span<const double> x, std::vector<double>& out) const;

  std::vector<DenseLayer>& layers() { return layers_; }
  const std::vector<DenseLayer>& layers() const { return layers_; }

  // {"sizes": [...], "layers": [{"w": [[row]...], "b": [...]}...]}; from_json checks every
  // shape and throws ConfigError naming what is wrong.
  nlohmann::json to_json() const;
  static Mlp from_json(const nlohmann::json& j);

 private:
  std::vector<int> sizes_;
  std::vector<DenseLayer> layers_;
  std::vector<Eigen::MatrixXd> activations_;  // input of each layer, from the last forward()
};

}  // namespace sysgym::agents
