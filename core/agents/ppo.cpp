#include "agents/ppo.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "agents/checkpoint.hpp"
#include "agents/network_config.hpp"
#include "base/error.hpp"
#include "base/json_text.hpp"
#include "env/config_reader.hpp"
#include "profiling/ops.hpp"

namespace sysgym::agents {

PpoConfig PpoConfig::from_json(const nlohmann::json& j) {
  ConfigReader r(j, "ppo");
  PpoConfig c;
  c.hidden = read_hidden_sizes(r, c.hidden);
  c.learning_rate = r.number("learning_rate", c.learning_rate, 1e-7, 1.0);
  c.gamma = r.number("gamma", c.gamma, 0.0, 1.0);
  c.gae_lambda = r.number("gae_lambda", c.gae_lambda, 0.0, 1.0);
  c.clip = r.number("clip", c.clip, 0.01, 1.0);
  c.epochs = static_cast<int>(r.integer("epochs", c.epochs, 1, 100));
  c.minibatch_size = static_cast<int>(r.integer("minibatch_size", c.minibatch_size, 1, 1 << 20));
  c.rollout_steps = static_cast<int>(r.integer("rollout_steps", c.rollout_steps, 1, 1 << 20));
  c.entropy_coef = r.number("entropy_coef", c.entropy_coef, 0.0, 10.0);
  c.value_coef = r.number("value_coef", c.value_coef, 0.0, 100.0);
  c.max_grad_norm = r.number("max_grad_norm", c.max_grad_norm, 0.0, 1e9);
  c.normalize_observations = r.boolean("normalize_observations", c.normalize_observations);
  c.initial_logit = r.number("initial_logit", c.initial_logit, -20.0, 20.0);
  c.per_bin = r.choice("policy_network", "dense", {"dense", "per_bin"}) == "per_bin";
  c.flip_actions = r.boolean("flip_actions", c.flip_actions);
  if (c.flip_actions && !c.per_bin) {
    r.fail("flip_actions", "needs \"policy_network\": \"per_bin\" (it reads bins' residency)");
  }
  r.finish();
  return c;
}

nlohmann::json PpoConfig::to_json() const {
  return {{"hidden", hidden},
          {"learning_rate", learning_rate},
          {"gamma", gamma},
          {"gae_lambda", gae_lambda},
          {"clip", clip},
          {"epochs", epochs},
          {"minibatch_size", minibatch_size},
          {"rollout_steps", rollout_steps},
          {"entropy_coef", entropy_coef},
          {"value_coef", value_coef},
          {"max_grad_norm", max_grad_norm},
          {"normalize_observations", normalize_observations},
          {"policy_network", per_bin ? "per_bin" : "dense"},
          {"initial_logit", initial_logit},
          {"flip_actions", flip_actions}};
}

namespace {

double softplus(double x) {
  return std::max(x, 0.0) + std::log1p(std::exp(-std::abs(x)));
}

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

std::optional<BinView> bin_view_for(const PpoConfig& config, int observation_size, int bins,
                                    const std::optional<EntityLayout>& entities) {
  if (!config.per_bin) return std::nullopt;
  if (entities && entities->count != bins) {
    throw ConfigError("a per-bin policy needs one action per " + entities->entity + " (" +
                      std::to_string(entities->count) + "); this env has " + std::to_string(bins));
  }
  return BinView::of(entities, observation_size, config.flip_actions);
}

}  // namespace

PpoAgent::PpoAgent(int observation_size, int bins, int envs, PpoConfig config, std::uint64_t seed,
                   const std::optional<EntityLayout>& entities)
    : config_(std::move(config)),
      obs_size_(observation_size),
      bins_(bins),
      envs_(envs),
      rng_(seed),
      bin_view_(bin_view_for(config_, observation_size, bins, entities)),
      policy_(bin_view_ ? network_sizes(bin_view_->feature_size(), config_.hidden, 1)
                        : network_sizes(observation_size, config_.hidden, bins),
              rng_),
      value_(network_sizes(observation_size, config_.hidden, 1), rng_),
      policy_adam_(policy_, {.learning_rate = config_.learning_rate,
                             .max_grad_norm = config_.max_grad_norm}),
      value_adam_(value_,
                  {.learning_rate = config_.learning_rate, .max_grad_norm = config_.max_grad_norm}),
      normalizer_(static_cast<std::size_t>(observation_size), config_.normalize_observations) {
  if (envs < 1) throw ConfigError("PPO needs at least one env");
  policy_.layers().back().b.setConstant(config_.initial_logit);
  const Eigen::Index n = static_cast<Eigen::Index>(config_.rollout_steps) * envs;
  obs_.resize(observation_size, n);
  actions_.resize(bins, n);
  if (bin_view_) policy_in_.resize(bin_view_->feature_size(), n * bins);
  log_probs_.resize(n);
  values_.resize(n);
  rewards_.resize(n);
  ends_.resize(n);
}

Eigen::MatrixXd PpoAgent::normalized(std::span<const float> rows, Eigen::Index count) const {
  Eigen::MatrixXd x(obs_size_, count);
  const auto d = static_cast<std::size_t>(obs_size_);
  for (Eigen::Index k = 0; k < count; ++k) {
    const std::span<const float> row = rows.subspan(static_cast<std::size_t>(k) * d, d);
    normalizer_.apply(row, std::span<double>(x.col(k).data(), d));
  }
  return x;
}

Eigen::MatrixXd PpoAgent::policy_input(std::span<const float> rows,
                                       const Eigen::MatrixXd& normalized,
                                       Eigen::Index count) const {
  if (!bin_view_) return normalized;
  const auto d = static_cast<std::size_t>(obs_size_);
  return batch_features(*bin_view_, count, [&](Eigen::Index k) {
    return rows.subspan(static_cast<std::size_t>(k) * d, d);
  });
}

double PpoAgent::placement(std::span<const float> observation, std::size_t bin,
                           bool decision) const {
  const double value = decision ? 1.0 : 0.0;
  return bin_view_ ? bin_view_->placement(observation, static_cast<int>(bin), value) : value;
}

Eigen::MatrixXd PpoAgent::logits_of(const Eigen::MatrixXd& output, Eigen::Index count) const {
  if (!bin_view_) return output;
  // One logit per (observation, bin) column, observation-major: a bins x count matrix.
  return Eigen::Map<const Eigen::MatrixXd>(output.data(), bins_, count);
}

void PpoAgent::act(std::span<const float> observations, bool explore, std::span<double> actions) {
  const profiling::Scope scope(profiling::ops::kPolicyAct);
  const auto d = static_cast<std::size_t>(obs_size_);
  const auto b = static_cast<std::size_t>(bins_);
  if (!explore) {
    // Acting on a trained policy: the fixed-order path, identical natively and in wasm.
    std::vector<double> x(d), logits;
    for (int k = 0; k < envs_; ++k) {
      const std::span<const float> row = observations.subspan(static_cast<std::size_t>(k) * d, d);
      if (bin_view_) {
        per_bin_logits(*bin_view_, policy_, row, logits);
      } else {
        normalizer_.apply(row, x);
        policy_.act(x, logits);
      }
      for (std::size_t i = 0; i < b; ++i)
        actions[static_cast<std::size_t>(k) * b + i] = placement(row, i, logits[i] > 0.0);
    }
    return;
  }
  if (ready()) throw ApiMisuseError("PPO rollout is full: call update() before acting again");
  for (int k = 0; k < envs_; ++k) {
    const std::span<const float> row = observations.subspan(static_cast<std::size_t>(k) * d, d);
    if (collective_ == nullptr) {
      normalizer_.update(row);
      continue;
    }
    rollout_moments_[0] += 1;
    for (std::size_t i = 0; i < d; ++i) {
      rollout_moments_[1 + i] += row[i];
      rollout_moments_[1 + d + i] += static_cast<double>(row[i]) * row[i];
    }
  }
  const Eigen::MatrixXd x = normalized(observations, envs_);
  const Eigen::MatrixXd input = policy_input(observations, x, envs_);
  const Eigen::MatrixXd logits = logits_of(policy_.predict(input), envs_);
  const Eigen::MatrixXd values = value_.predict(x);
  for (int k = 0; k < envs_; ++k) {
    const Eigen::Index col = static_cast<Eigen::Index>(stored_) * envs_ + k;
    double log_prob = 0;
    for (int i = 0; i < bins_; ++i) {
      const double l = logits(i, k);
      const double a = rng_.uniform() < sigmoid(l) ? 1.0 : 0.0;
      actions[static_cast<std::size_t>(k) * b + static_cast<std::size_t>(i)] =
          placement(observations.subspan(static_cast<std::size_t>(k) * d, d),
                    static_cast<std::size_t>(i), a != 0.0);
      actions_(i, col) = a;
      log_prob += a * l - softplus(l);
    }
    obs_.col(col) = x.col(k);
    if (bin_view_)
      policy_in_.middleCols(Eigen::Index{col} * bins_, bins_) =
          input.middleCols(Eigen::Index{k} * bins_, bins_);
    log_probs_[col] = log_prob;
    values_[col] = values(0, k);
  }
}

void PpoAgent::record(std::span<const double> rewards, std::span<const std::uint8_t> terminated,
                      std::span<const std::uint8_t> truncated,
                      std::span<const float> final_observations) {
  const auto d = static_cast<std::size_t>(obs_size_);
  for (int k = 0; k < envs_; ++k) {
    const auto kk = static_cast<std::size_t>(k);
    const Eigen::Index col = static_cast<Eigen::Index>(stored_) * envs_ + k;
    double reward = rewards[kk];
    // A cut-off episode did not end: its remaining return is the value of where it stopped.
    if (truncated[kk] != 0 && terminated[kk] == 0) {
      const Eigen::MatrixXd last = normalized(final_observations.subspan(kk * d, d), 1);
      reward += config_.gamma * value_.predict(last)(0, 0);
    }
    rewards_[col] = reward;
    ends_[col] = terminated[kk] != 0 || truncated[kk] != 0 ? 1.0 : 0.0;
  }
  ++stored_;
  env_steps_ += envs_;
}

void PpoAgent::set_collective(Collective* collective, std::uint64_t rank_seed) {
  collective_ = collective;
  if (collective_ == nullptr) return;
  rng_.reseed(rank_seed);
  rollout_moments_.assign(1 + 2 * static_cast<std::size_t>(obs_size_), 0.0);
}

// Every rank's rollout observations, summed over the ranks, merged into the normaliser: the
// same merge on every rank, so normalisers stay identical.
void PpoAgent::merge_rollout_moments() {
  collective_->sum(rollout_moments_);
  const double count = rollout_moments_[0];
  const auto d = static_cast<std::size_t>(obs_size_);
  std::vector<double> mean(d), m2(d);
  for (std::size_t i = 0; i < d; ++i) {
    mean[i] = rollout_moments_[1 + i] / count;
    m2[i] = std::max(0.0, rollout_moments_[1 + d + i] - count * mean[i] * mean[i]);
  }
  normalizer_.merge(count, mean, m2);
  std::fill(rollout_moments_.begin(), rollout_moments_.end(), 0.0);
}

PpoStats PpoAgent::update(std::span<const float> observations) {
  const profiling::Scope scope(profiling::ops::kLearnerUpdate);
  if (!ready()) throw ApiMisuseError("PPO update() before a full rollout");
  const Eigen::Index n = obs_.cols();
  const Eigen::VectorXd last = value_.predict(normalized(observations, envs_)).row(0).transpose();
  Eigen::VectorXd advantages(n);
  Eigen::VectorXd gae = Eigen::VectorXd::Zero(envs_);
  for (int t = config_.rollout_steps - 1; t >= 0; --t) {
    for (int k = 0; k < envs_; ++k) {
      const Eigen::Index col = static_cast<Eigen::Index>(t) * envs_ + k;
      const double next = t + 1 == config_.rollout_steps ? last[k] : values_[col + envs_];
      const double alive = 1.0 - ends_[col];
      const double delta = rewards_[col] + config_.gamma * next * alive - values_[col];
      gae[k] = delta + config_.gamma * config_.gae_lambda * alive * gae[k];
      advantages[col] = gae[k];
    }
  }
  const Eigen::VectorXd returns = advantages + values_;
  const double mean = advantages.mean();
  const double std = std::sqrt((advantages.array() - mean).square().mean()) + 1e-8;
  advantages = (advantages.array() - mean) / std;

  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  PpoStats stats;
  int batches = 0;
  const Eigen::Index m_max = std::min<Eigen::Index>(config_.minibatch_size, n);
  for (int epoch = 0; epoch < config_.epochs; ++epoch) {
    for (std::size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[static_cast<std::size_t>(rng_.below(i))]);
    for (Eigen::Index start = 0; start < n; start += m_max) {
      const Eigen::Index m = std::min(m_max, n - start);
      Eigen::MatrixXd x(obs_size_, m), a(bins_, m);
      Eigen::MatrixXd features(bin_view_ ? policy_in_.rows() : 0, bin_view_ ? m * bins_ : 0);
      Eigen::VectorXd old_log_prob(m), adv(m), ret(m);
      for (Eigen::Index j = 0; j < m; ++j) {
        const Eigen::Index c = order[static_cast<std::size_t>(start + j)];
        x.col(j) = obs_.col(c);
        if (bin_view_)
          features.middleCols(j * bins_, bins_) = policy_in_.middleCols(c * bins_, bins_);
        a.col(j) = actions_.col(c);
        old_log_prob[j] = log_probs_[c];
        adv[j] = advantages[c];
        ret[j] = returns[c];
      }
      const Eigen::MatrixXd logits = logits_of(policy_.forward(bin_view_ ? features : x), m);
      Eigen::MatrixXd grad(bins_, m);
      for (Eigen::Index j = 0; j < m; ++j) {
        double log_prob = 0;
        for (int i = 0; i < bins_; ++i)
          log_prob += a(i, j) * logits(i, j) - softplus(logits(i, j));
        const double ratio = std::exp(log_prob - old_log_prob[j]);
        const double clipped = std::clamp(ratio, 1 - config_.clip, 1 + config_.clip);
        const bool use_unclipped = ratio * adv[j] <= clipped * adv[j];
        stats.policy_loss -= std::min(ratio * adv[j], clipped * adv[j]) / static_cast<double>(m);
        stats.clip_fraction += use_unclipped ? 0.0 : 1.0 / static_cast<double>(m);
        // d(-surrogate)/d(log prob): zero where the clipped term is the smaller one.
        const double g = use_unclipped ? -ratio * adv[j] / static_cast<double>(m) : 0.0;
        for (int i = 0; i < bins_; ++i) {
          const double l = logits(i, j), p = sigmoid(l);
          const double entropy = softplus(l) - p * l;
          stats.entropy += entropy / static_cast<double>(m);
          // Loss = -surrogate - entropy_coef * entropy; d entropy / d logit = -l p (1 - p).
          grad(i, j) =
              g * (a(i, j) - p) + config_.entropy_coef * l * p * (1 - p) / static_cast<double>(m);
        }
      }
      // Per bin, the network's output is one row of m * bins logits in the same order.
      policy_.backward(bin_view_ ? Eigen::Map<const Eigen::MatrixXd>(grad.data(), 1, m * bins_)
                                 : Eigen::MatrixXd(grad));
      if (collective_ != nullptr) average_gradients(*collective_, policy_);
      policy_adam_.step(policy_);
      const Eigen::MatrixXd& v = value_.forward(x);
      const Eigen::MatrixXd error = v - ret.transpose();
      stats.value_loss += error.squaredNorm() / static_cast<double>(m);
      value_.backward(2 * config_.value_coef * error / static_cast<double>(m));
      if (collective_ != nullptr) average_gradients(*collective_, value_);
      value_adam_.step(value_);
      ++batches;
    }
  }
  stored_ = 0;
  ++updates_;
  if (collective_ != nullptr) merge_rollout_moments();
  stats.policy_loss /= batches;
  stats.value_loss /= batches;
  stats.entropy /= batches;
  stats.clip_fraction /= batches;
  return stats;
}

nlohmann::json PpoAgent::state() const {
  return {{"policy", policy_.to_json()},
          {"value", value_.to_json()},
          {"policy_adam", policy_adam_.to_json()},
          {"value_adam", value_adam_.to_json()},
          {"normalizer", normalizer_.to_json()},
          {"rng", rng_to_json(rng_)},
          {"env_steps", env_steps_},
          {"updates", updates_}};
}

void PpoAgent::load_state(const nlohmann::json& j) {
  load_checkpoint("PPO", [&] {
    load_network(j.at("policy"), policy_, "policy");
    load_network(j.at("value"), value_, "value");
    policy_adam_.load_json(j.at("policy_adam"));
    value_adam_.load_json(j.at("value_adam"));
    normalizer_ = ObservationNormalizer::from_json(j.at("normalizer"), normalizer_.size());
    load_rng(j.at("rng"), rng_);
    env_steps_ = json_integer<std::int64_t>(j.at("env_steps"));
    updates_ = json_integer<std::int64_t>(j.at("updates"));
    stored_ = 0;
  });
}

}  // namespace sysgym::agents
