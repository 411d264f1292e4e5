#include "agents/dqn.hpp"

#include <algorithm>
#include <cmath>

#include "agents/checkpoint.hpp"
#include "agents/network_config.hpp"
#include "agents/per_bin_q.hpp"
#include "base/error.hpp"
#include "base/json_text.hpp"
#include "env/config_reader.hpp"
#include "profiling/ops.hpp"

namespace sysgym::agents {

DqnConfig DqnConfig::from_json(const nlohmann::json& j) {
  ConfigReader r(j, "dqn");
  DqnConfig c;
  c.hidden = read_hidden_sizes(r, c.hidden);
  c.learning_rate = r.number("learning_rate", c.learning_rate, 1e-7, 1.0);
  c.gamma = r.number("gamma", c.gamma, 0.0, 1.0);
  c.batch_size = static_cast<int>(r.integer("batch_size", c.batch_size, 1, 65536));
  c.replay_capacity =
      static_cast<int>(r.integer("replay_capacity", c.replay_capacity, 1, 10'000'000));
  c.learning_starts = static_cast<int>(r.integer("learning_starts", c.learning_starts, 1, 1 << 30));
  c.train_every = static_cast<int>(r.integer("train_every", c.train_every, 1, 1 << 20));
  c.target_update = static_cast<int>(r.integer("target_update", c.target_update, 1, 1 << 30));
  c.epsilon_start = r.number("epsilon_start", c.epsilon_start, 0.0, 1.0);
  c.epsilon_end = r.number("epsilon_end", c.epsilon_end, 0.0, 1.0);
  c.epsilon_decay_steps =
      r.integer("epsilon_decay_steps", c.epsilon_decay_steps, 1, std::int64_t{1} << 40);
  c.double_dqn = r.boolean("double_dqn", c.double_dqn);
  c.huber_delta = r.number("huber_delta", c.huber_delta, 1e-6, 1e6);
  c.max_grad_norm = r.number("max_grad_norm", c.max_grad_norm, 0.0, 1e9);
  c.normalize_observations = r.boolean("normalize_observations", c.normalize_observations);
  c.per_bin = r.choice("q_network", "dense", {"dense", "per_bin"}) == "per_bin";
  c.broadcast_every = static_cast<int>(r.integer("broadcast_every", c.broadcast_every, 1, 1 << 20));
  r.finish();
  return c;
}

nlohmann::json DqnConfig::to_json() const {
  return {{"hidden", hidden},
          {"learning_rate", learning_rate},
          {"gamma", gamma},
          {"batch_size", batch_size},
          {"replay_capacity", replay_capacity},
          {"learning_starts", learning_starts},
          {"train_every", train_every},
          {"target_update", target_update},
          {"epsilon_start", epsilon_start},
          {"epsilon_end", epsilon_end},
          {"epsilon_decay_steps", epsilon_decay_steps},
          {"double_dqn", double_dqn},
          {"huber_delta", huber_delta},
          {"max_grad_norm", max_grad_norm},
          {"normalize_observations", normalize_observations},
          {"q_network", per_bin ? "per_bin" : "dense"},
          {"broadcast_every", broadcast_every}};
}

int argmax(std::span<const double> values) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < values.size(); ++i)
    if (values[i] > values[best]) best = i;
  return static_cast<int>(best);
}

namespace {

std::optional<BinView> bin_view_for(const DqnConfig& config, int observation_size, int actions,
                                    const std::optional<EntityLayout>& entities) {
  if (!config.per_bin) return std::nullopt;
  const int verbs = entities ? static_cast<int>(entities->verbs.size()) : 0;
  if (entities && (verbs == 0 || actions != 1 + verbs * entities->count)) {
    throw ConfigError("a per-bin Q needs discrete actions over the env's " + entities->entity +
                      "s (nothing, or a verb on one " + entities->entity + "); this env has " +
                      std::to_string(actions) + " actions and " + std::to_string(verbs) +
                      " verbs over " + std::to_string(entities->count) + " " + entities->entity +
                      "s");
  }
  return BinView::of(entities, observation_size, false);
}

// The advantage network's outputs: one per verb, or one per action for a dense Q.
int q_outputs(const std::optional<EntityLayout>& entities, const std::optional<BinView>& view,
              int actions) {
  return view ? static_cast<int>(entities->verbs.size()) : actions;
}

}  // namespace

DqnAgent::DqnAgent(int observation_size, int actions, DqnConfig config, std::uint64_t seed,
                   const std::optional<EntityLayout>& entities)
    : config_(std::move(config)),
      actions_(actions),
      rng_(seed),
      bin_view_(bin_view_for(config_, observation_size, actions, entities)),
      q_(network_sizes(bin_view_ ? bin_view_->feature_size() : observation_size, config_.hidden,
                       q_outputs(entities, bin_view_, actions)),
         rng_),
      target_(q_),
      adam_(q_, {.learning_rate = config_.learning_rate, .max_grad_norm = config_.max_grad_norm}),
      replay_(static_cast<std::size_t>(config_.replay_capacity),
              static_cast<std::size_t>(observation_size)),
      normalizer_(static_cast<std::size_t>(observation_size), config_.normalize_observations),
      scratch_(static_cast<std::size_t>(observation_size)) {
  if (actions < 2) throw ConfigError("DQN needs at least two actions");
  if (bin_view_) {
    value_ = Mlp(network_sizes(observation_size, config_.hidden, 1), rng_);
    value_target_ = value_;
    value_adam_.emplace(value_, adam_.config());
  }
}

double DqnAgent::epsilon() const {
  const double progress = std::min(
      1.0, static_cast<double>(env_steps_) / static_cast<double>(config_.epsilon_decay_steps));
  return config_.epsilon_start + (config_.epsilon_end - config_.epsilon_start) * progress;
}

int DqnAgent::act(std::span<const float> observation, bool explore) {
  const profiling::Scope scope(profiling::ops::kPolicyAct);
  if (explore && rng_.uniform() < epsilon()) return static_cast<int>(rng_.below(actions_));
  if (bin_view_) {
    per_bin_q_values(*bin_view_, q_, value_, normalizer_, observation, values_);
  } else {
    normalizer_.apply(observation, scratch_);
    q_.act(scratch_, values_);
  }
  return argmax(values_);
}

void DqnAgent::observe(std::span<const float> observation, int action, double reward,
                       std::span<const float> next, bool terminal) {
  store(observation, action, reward, next, terminal);
  if (env_steps_ % config_.train_every == 0) learn();
}

void DqnAgent::store(std::span<const float> observation, int action, double reward,
                     std::span<const float> next, bool terminal) {
  normalizer_.update(observation);
  replay_.add(observation, action, reward, next, terminal);
  ++env_steps_;
}

void DqnAgent::learn() {
  if (env_steps_ >= config_.learning_starts) update();
}

std::vector<double> DqnAgent::acting_parameters() const {
  std::vector<double> out;
  q_.append_parameters(out);
  value_.append_parameters(out);
  normalizer_.append_state(out);
  out.push_back(static_cast<double>(env_steps_));  // exact below 2^53 steps
  return out;
}

void DqnAgent::load_acting_parameters(std::span<const double> values) {
  values = normalizer_.read_state(value_.read_parameters(q_.read_parameters(values)));
  if (values.size() != 1) throw Error("DQN acting parameters of another agent shape");
  env_steps_ = static_cast<std::int64_t>(values[0]);
}

void DqnAgent::update() {
  const profiling::Scope scope(profiling::ops::kLearnerUpdate);
  const auto n = static_cast<Eigen::Index>(config_.batch_size);
  const auto d = static_cast<Eigen::Index>(normalizer_.size());
  Eigen::MatrixXd x(d, n), next(d, n);
  {
    const profiling::Scope sampling(profiling::ops::kReplaySample);
    replay_.sample(static_cast<std::size_t>(n), rng_, batch_);
    for (Eigen::Index k = 0; k < n; ++k) {
      const std::size_t i = batch_[static_cast<std::size_t>(k)];
      normalizer_.apply(replay_.obs(i),
                        std::span<double>(x.col(k).data(), static_cast<std::size_t>(d)));
      normalizer_.apply(replay_.next_obs(i),
                        std::span<double>(next.col(k).data(), static_cast<std::size_t>(d)));
    }
  }
  Eigen::MatrixXd q, online_next, target_q;
  batch_q(x, next, q, online_next, target_q);
  Eigen::MatrixXd grad = Eigen::MatrixXd::Zero(q.rows(), n);
  double loss = 0;
  for (Eigen::Index k = 0; k < n; ++k) {
    const std::size_t i = batch_[static_cast<std::size_t>(k)];
    Eigen::Index best = 0;
    online_next.col(k).maxCoeff(&best);
    const double bootstrap = replay_.terminal(i) ? 0.0 : config_.gamma * target_q(best, k);
    const double target = replay_.reward(i) + bootstrap;
    const double error = q(replay_.action(i), k) - target;
    const double delta = config_.huber_delta;
    // Huber: quadratic near zero, linear beyond delta (bounded gradients on outliers).
    loss +=
        std::abs(error) <= delta ? 0.5 * error * error : delta * (std::abs(error) - 0.5 * delta);
    grad(replay_.action(i), k) = std::clamp(error, -delta, delta) / static_cast<double>(n);
  }
  if (bin_view_) {
    Eigen::MatrixXd grad_advantages, grad_values;
    split_q_gradient(grad, bin_view_->bins, grad_advantages, grad_values);
    q_.backward(grad_advantages);
    value_.backward(grad_values);
    value_adam_->step(value_);
  } else {
    q_.backward(grad);
  }
  adam_.step(q_);
  last_loss_ = loss / static_cast<double>(n);
  if (++updates_ % config_.target_update == 0) {
    target_ = q_;
    value_target_ = value_;
  }
}

Eigen::MatrixXd DqnAgent::bin_features(bool next_observations) const {
  return batch_features(*bin_view_, static_cast<Eigen::Index>(batch_.size()), [&](Eigen::Index k) {
    const std::size_t i = batch_[static_cast<std::size_t>(k)];
    return next_observations ? replay_.next_obs(i) : replay_.obs(i);
  });
}

void DqnAgent::batch_q(const Eigen::MatrixXd& x, const Eigen::MatrixXd& next, Eigen::MatrixXd& q,
                       Eigen::MatrixXd& online_next, Eigen::MatrixXd& target_next) {
  // Double DQN: the online network picks the next action, the target network values it.
  if (!bin_view_) {
    target_next = target_.predict(next);
    online_next = config_.double_dqn ? q_.predict(next) : target_next;
    q = q_.forward(x);
    return;
  }
  const int b = bin_view_->bins;
  const Eigen::MatrixXd features = bin_features(false), next_features = bin_features(true);
  target_next = compose_q(target_.predict(next_features), value_target_.predict(next), b);
  online_next = config_.double_dqn ? compose_q(q_.predict(next_features), value_.predict(next), b)
                                   : target_next;
  q = compose_q(q_.forward(features), value_.forward(x), b);
}

nlohmann::json DqnAgent::state() const {
  nlohmann::json j = {{"q", q_.to_json()},        {"target", target_.to_json()},
                      {"adam", adam_.to_json()},  {"normalizer", normalizer_.to_json()},
                      {"rng", rng_to_json(rng_)}, {"replay", replay_.to_json()},
                      {"env_steps", env_steps_},  {"updates", updates_},
                      {"last_loss", last_loss_}};
  if (bin_view_) {
    j["value"] = value_.to_json();
    j["value_target"] = value_target_.to_json();
    j["value_adam"] = value_adam_->to_json();
  }
  return j;
}

void DqnAgent::load_state(const nlohmann::json& j) {
  load_checkpoint("DQN", [&] {
    load_network(j.at("q"), q_, "Q");
    load_network(j.at("target"), target_, "target");
    adam_.load_json(j.at("adam"));
    normalizer_ = ObservationNormalizer::from_json(j.at("normalizer"), normalizer_.size());
    load_rng(j.at("rng"), rng_);
    replay_.load_json(j.at("replay"));
    if (bin_view_) {
      load_network(j.at("value"), value_, "value");
      load_network(j.at("value_target"), value_target_, "value target");
      value_adam_->load_json(j.at("value_adam"));
    }
    env_steps_ = json_integer<std::int64_t>(j.at("env_steps"));
    updates_ = json_integer<std::int64_t>(j.at("updates"));
    last_loss_ = j.at("last_loss").get<double>();
  });
}

}  // namespace sysgym::agents
