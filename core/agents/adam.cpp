#include "agents/adam.hpp"

#include <cmath>

#include "base/error.hpp"
#include "base/json_text.hpp"

namespace sysgym::agents {

Adam::Adam(const Mlp& mlp, AdamConfig config) : config_(config) {
  if (!(config.learning_rate > 0)) throw ConfigError("learning rate must be positive");
  for (const DenseLayer& l : mlp.layers()) {
    moments_.push_back({Eigen::MatrixXd::Zero(l.w.rows(), l.w.cols()),
                        Eigen::MatrixXd::Zero(l.w.rows(), l.w.cols()),
                        Eigen::VectorXd::Zero(l.b.size()), Eigen::VectorXd::Zero(l.b.size())});
  }
}

void Adam::step(Mlp& mlp) {
  double scale = 1.0;
  if (config_.max_grad_norm > 0) {
    double squared = 0;
    for (const DenseLayer& l : mlp.layers())
      squared += l.grad_w.squaredNorm() + l.grad_b.squaredNorm();
    const double norm = std::sqrt(squared);
    if (norm > config_.max_grad_norm) scale = config_.max_grad_norm / norm;
  }
  ++t_;
  const double b1 = config_.beta1, b2 = config_.beta2;
  const double correction1 = 1 - std::pow(b1, static_cast<double>(t_));
  const double correction2 = 1 - std::pow(b2, static_cast<double>(t_));
  const double step = config_.learning_rate * std::sqrt(correction2) / correction1;
  for (std::size_t i = 0; i < moments_.size(); ++i) {
    DenseLayer& l = mlp.layers()[i];
    Moments& m = moments_[i];
    m.mw = b1 * m.mw + (1 - b1) * scale * l.grad_w;
    m.vw = b2 * m.vw + (1 - b2) * (scale * l.grad_w).cwiseAbs2();
    m.mb = b1 * m.mb + (1 - b1) * scale * l.grad_b;
    m.vb = b2 * m.vb + (1 - b2) * (scale * l.grad_b).cwiseAbs2();
    l.w -= step * (m.mw.array() / (m.vw.array().sqrt() + config_.epsilon)).matrix();
    l.b -= step * (m.mb.array() / (m.vb.array().sqrt() + config_.epsilon)).matrix();
  }
}

namespace {

template <typename M>
nlohmann::json flat(const M& m) {
  return std::vector<double>(m.data(), m.data() + m.size());
}

template <typename M>
void unflat(const nlohmann::json& j, M& m) {
  const auto v = j.get<std::vector<double>>();
  if (v.size() != static_cast<std::size_t>(m.size()))
    throw ConfigError("optimizer state does not match the network's shape");
  std::copy(v.begin(), v.end(), m.data());
}

}  // namespace

nlohmann::json Adam::to_json() const {
  nlohmann::json layers = nlohmann::json::array();
  for (const Moments& m : moments_) {
    layers.push_back(
        {{"mw", flat(m.mw)}, {"vw", flat(m.vw)}, {"mb", flat(m.mb)}, {"vb", flat(m.vb)}});
  }
  return {{"t", t_}, {"learning_rate", config_.learning_rate}, {"layers", std::move(layers)}};
}

void Adam::load_json(const nlohmann::json& j) {
  const nlohmann::json& layers = j.at("layers");
  if (layers.size() != moments_.size())
    throw ConfigError("optimizer state does not match the network's shape");
  for (std::size_t i = 0; i < moments_.size(); ++i) {
    unflat(layers[i].at("mw"), moments_[i].mw);
    unflat(layers[i].at("vw"), moments_[i].vw);
    unflat(layers[i].at("mb"), moments_[i].mb);
    unflat(layers[i].at("vb"), moments_[i].vb);
  }
  t_ = json_integer<std::int64_t>(j.at("t"));
  config_.learning_rate = j.at("learning_rate").get<double>();
}

}  // namespace sysgym::agents
