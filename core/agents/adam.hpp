// Adam (Kingma & Ba 2015) over an Mlp's layers, with optional clipping of the global gradient
// norm (both agents clip: one outlier batch should not wreck a policy).
#pragma once

#include <vector>

#include "agents/mlp.hpp"

namespace sysgym::agents {

struct AdamConfig {
  double learning_rate = 1e-3;
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  double max_grad_norm = 10.0;  // 0: no clipping
};

class Adam {
 public:
  Adam(const Mlp& mlp, AdamConfig config);
  // Applies the gradients held in the layers (from Mlp::backward) to the weights.
  void step(Mlp& mlp);
  const AdamConfig& config() const { return config_; }
  void set_learning_rate(double lr) { config_.learning_rate = lr; }
  std::int64_t steps() const { return t_; }

  // Moments and step count, for checkpoints that resume exactly.
  nlohmann::json to_json() const;
  void load_json(const nlohmann::json& j);

 private:
  struct Moments {
    Eigen::MatrixXd mw, vw;
    Eigen::VectorXd mb, vb;
  };
  AdamConfig config_;
  std::vector<Moments> moments_;
  std::int64_t t_ = 0;
};

}  // namespace sysgym::agents
