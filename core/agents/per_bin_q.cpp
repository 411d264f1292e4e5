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
  const auto verbs = static_cast<std::size_t>(advantage.outputs());
  q.assign(verbs * b + 1, v);
  for (std::size_t i = 0; i < b; ++i) {
    advantage.act(std::span<const double>(features).subspan(i * f, f), out);
    for (std::size_t k = 0; k < verbs; ++k)
      q[1 + k * b + i] = v + out[k];
  }
}

Eigen::MatrixXd compose_q(const Eigen::MatrixXd& advantages, const Eigen::MatrixXd& values,
                          int bins) {
  const Eigen::Index m = values.cols(), b = bins, verbs = advantages.rows();
  Eigen::MatrixXd q(verbs * b + 1, m);
  for (Eigen::Index j = 0; j < m; ++j) {
    const double v = values(0, j);
    q(0, j) = v;
    for (Eigen::Index i = 0; i < b; ++i) {
      for (Eigen::Index k = 0; k < verbs; ++k)
        q(1 + k * b + i, j) = v + advantages(k, j * b + i);
    }
  }
  return q;
}

void split_q_gradient(const Eigen::MatrixXd& grad_q, int bins, Eigen::MatrixXd& grad_advantages,
                      Eigen::MatrixXd& grad_values) {
  const Eigen::Index m = grad_q.cols(), b = bins, verbs = (grad_q.rows() - 1) / bins;
  grad_advantages.resize(verbs, m * b);
  grad_values.resize(1, m);
  for (Eigen::Index j = 0; j < m; ++j) {
    grad_values(0, j) = grad_q.col(j).sum();
    for (Eigen::Index i = 0; i < b; ++i) {
      for (Eigen::Index k = 0; k < verbs; ++k)
        grad_advantages(k, j * b + i) = grad_q(1 + k * b + i, j);
    }
  }
}

}  // namespace sysgym::agents
