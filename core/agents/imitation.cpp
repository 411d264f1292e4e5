#include "agents/imitation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "agents/adam.hpp"
#include "agents/network_config.hpp"
#include "base/error.hpp"

namespace sysgym::agents {
namespace {

void check(const std::vector<std::vector<float>>& x, const std::vector<int>& y, int classes,
           const ImitationConfig& c) {
  if (x.empty() || x.size() != y.size())
    throw ConfigError("imitation: " + std::to_string(x.size()) + " observations and " +
                      std::to_string(y.size()) + " labels (needs one label each, at least one)");
  for (const auto& row : x) {
    if (row.size() != x.front().size())
      throw ConfigError("imitation: observations of different sizes");
  }
  for (int label : y) {
    if (label < 0 || label >= classes)
      throw ConfigError("imitation: the label " + std::to_string(label) +
                        " is not an action in [0, " + std::to_string(classes) + ")");
  }
  if (c.epochs < 1 || c.batch < 1 || !(c.learning_rate > 0))
    throw ConfigError("imitation: epochs, batch and learning_rate must be positive");
}

// Softmax cross-entropy of one batch: its weighted loss, and dLoss/dScores into `grad`.
double cross_entropy(const Eigen::MatrixXd& scores, const std::vector<int>& labels,
                     const std::vector<double>& weights, Eigen::MatrixXd& grad) {
  grad.resize(scores.rows(), scores.cols());
  double loss = 0;
  const double n = static_cast<double>(scores.cols());
  for (Eigen::Index i = 0; i < scores.cols(); ++i) {
    const Eigen::VectorXd shifted = scores.col(i).array() - scores.col(i).maxCoeff();
    const Eigen::VectorXd p = shifted.array().exp() / shifted.array().exp().sum();
    const int label = labels[static_cast<std::size_t>(i)];
    const double w = weights[static_cast<std::size_t>(label)];
    loss += -w * std::log(std::max(p[label], 1e-300));
    grad.col(i) = w * p / n;
    grad(label, i) -= w / n;
  }
  return loss / n;
}

}  // namespace

ImitationResult train_imitation(const std::vector<std::vector<float>>& x, const std::vector<int>& y,
                                int classes, const ImitationConfig& c) {
  check(x, y, classes, c);
  Rng rng(c.seed);
  ImitationResult out;
  out.network = Mlp(network_sizes(static_cast<int>(x.front().size()), c.hidden, classes), rng);
  Adam adam(out.network, AdamConfig{c.learning_rate});

  std::vector<double> counts(static_cast<std::size_t>(classes), 0.0);
  for (int label : y)
    counts[static_cast<std::size_t>(label)] += 1;
  std::vector<double> weights(counts.size(), 1.0);
  const double present = static_cast<double>(
      std::count_if(counts.begin(), counts.end(), [](double n) { return n > 0; }));
  for (std::size_t k = 0; k < counts.size() && c.balance; ++k)
    weights[k] = counts[k] > 0 ? static_cast<double>(y.size()) / (present * counts[k]) : 0.0;

  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const Eigen::Index inputs = static_cast<Eigen::Index>(x.front().size());
  Eigen::MatrixXd batch, grad;
  std::vector<int> labels;
  for (int epoch = 0; epoch < c.epochs; ++epoch) {
    for (std::size_t i = order.size(); i > 1; --i)  // Fisher-Yates with the project's Rng
      std::swap(order[i - 1], order[rng.below(i)]);
    double loss = 0;
    std::size_t batches = 0;
    for (std::size_t start = 0; start < order.size(); start += static_cast<std::size_t>(c.batch)) {
      const std::size_t end = std::min(order.size(), start + static_cast<std::size_t>(c.batch));
      batch.resize(inputs, static_cast<Eigen::Index>(end - start));
      labels.clear();
      for (std::size_t k = start; k < end; ++k) {
        for (Eigen::Index f = 0; f < inputs; ++f)
          batch(f, static_cast<Eigen::Index>(k - start)) = x[order[k]][static_cast<std::size_t>(f)];
        labels.push_back(y[order[k]]);
      }
      loss += cross_entropy(out.network.forward(batch), labels, weights, grad);
      out.network.backward(grad);
      adam.step(out.network);
      ++batches;
    }
    out.epoch_loss.push_back(loss / static_cast<double>(batches));
  }

  std::vector<double> right(counts.size(), 0.0);
  std::vector<double> scores;
  std::vector<double> row(static_cast<std::size_t>(inputs));
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::copy(x[i].begin(), x[i].end(), row.begin());
    out.network.act(row, scores);
    const auto best = std::max_element(scores.begin(), scores.end()) - scores.begin();
    if (best == y[i]) right[static_cast<std::size_t>(y[i])] += 1;
  }
  out.accuracy = std::accumulate(right.begin(), right.end(), 0.0) / static_cast<double>(x.size());
  for (std::size_t k = 0; k < counts.size(); ++k)
    out.balanced_accuracy += counts[k] > 0 ? right[k] / counts[k] / present : 0.0;
  return out;
}

PolicyFile imitation_policy_file(const Env& env, Mlp network, nlohmann::json agent_config) {
  PolicyFile file;
  file.agent = "imitation";
  file.env_id = env.id();
  file.env_config = env.config();
  file.action_space = env.action_space().to_string();
  file.observation_layout = env.observation_layout();
  file.normalizer = ObservationNormalizer(file.observation_layout.size(), false);
  file.network = std::move(network);
  file.agent_config = std::move(agent_config);
  return file;
}

}  // namespace sysgym::agents
