#include "agents/per_bin_q.hpp"

namespace sysgym::agents {

void per_bin_q_values(const BinView& view, const Mlp& advantage, const Mlp& value,
                      const ObservationNormalizer& normalizer, std::span<const float> observation,
                      std::vector<double>& q) {
  const auto b = static_cast<std::size_t>(view.bins);
  const auto f = static_cast<std::size_t>(view.feature_size());
  std::vector<double> x(observation.size()), features(f * b), out;
  normalizer.apply(observation, x);
  value.act(x, out);
  const double v = out[0];
  view.features(observation, features);
  q.assign(2 * b + 1, v);
  for (std::size_t i = 0; i < b; ++i) {
    advantage.act(std::span<const double>(features).subspan(i * f, f), out);
    q[1 + i] = v + out[0];
    q[1 + b + i] = v + out[1];
  }
}

Eigen::MatrixXd compose_q(const Eigen::MatrixXd& advantages, const Eigen::MatrixXd& values,
                          int bins) {
  const Eigen::Index m = values.cols(), b = bins;
  Eigen::MatrixXd q(2 * b + 1, m);
  for (Eigen::Index j = 0; j < m; ++j) {
    const double v = values(0, j);
    q(0, j) = v;
    for (Eigen::Index i = 0; i < b; ++i) {
      q(1 + i, j) = v + advantages(0, j * b + i);
      q(1 + b + i, j) = v + advantages(1, j * b + i);
    }
  }
  return q;
}

void split_q_gradient(const Eigen::MatrixXd& grad_q, int bins, Eigen::MatrixXd& grad_advantages,
                      Eigen::MatrixXd& grad_values) {
  const Eigen::Index m = grad_q.cols(), b = bins;
  grad_advantages.resize(2, m * b);
  grad_values.resize(1, m);
  for (Eigen::Index j = 0; j < m; ++j) {
    grad_values(0, j) = grad_q.col(j).sum();
    for (Eigen::Index i = 0; i < b; ++i) {
      grad_advantages(0, j * b + i) = grad_q(1 + i, j);
      grad_advantages(1, j * b + i) = grad_q(1 + b + i, j);
    }
  }
}

}  // namespace sysgym::agents
