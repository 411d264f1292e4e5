#include "agents/trainer.hpp"

#include <algorithm>
#include <numeric>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/quote.hpp"
#include "profiling/ops.hpp"

namespace sysgym::agents {
namespace {

constexpr std::size_t kRecentEpisodes = 20;

VectorEnv make_envs(const Registry& registry, const TrainerOptions& options, ParallelFor pf) {
  const profiling::Scope setup(profiling::ops::kTrainerSetup);
  if (options.env_configs.empty()) throw ConfigError("training needs at least one env");
  std::vector<std::unique_ptr<Env>> envs;
  for (const nlohmann::json& config : options.env_configs)
    envs.push_back(registry.make(options.env_id, config));
  return VectorEnv(std::move(envs), std::move(pf));
}

// The action space each agent acts in, as the env's training hook names it.
std::string_view action_kind(const std::string& agent) {
  return agent == "ppo" ? "MultiBinary" : "Discrete";
}

// Whether `agent` acts in `actions`. PPO's Discrete(2) is one Bernoulli variable, which is exactly
// a two-way categorical: the one logit says how much more likely action 1 is (inline-v0: inline
// this site or not).
bool acts_in(const std::string& agent, const Space& actions) {
  if (agent == "dqn") return actions.kind() == SpaceKind::kDiscrete;
  return actions.kind() == SpaceKind::kMultiBinary ||
         (actions.kind() == SpaceKind::kDiscrete && actions.n() == 2);
}

// The agent an env trains with when none is named: dqn where the env can act in Discrete.
std::string default_agent(const Registry& registry, const EnvSpec& spec,
                          const TrainerOptions& options) {
  if (options.env_configs.empty()) throw ConfigError("training needs at least one env");
  const auto env =
      registry.make(spec.id, spec.training_config(options.env_configs.front(), "Discrete"));
  return acts_in("dqn", env->action_space()) ? "dqn" : "ppo";
}

// The users' configs with what the env adds for training (its action mode for this agent ...),
// so the policy file and the training state record the configs the envs really ran.
TrainerOptions with_training_configs(const Registry& registry, TrainerOptions options) {
  const EnvSpec& spec = registry.spec(options.env_id);
  options.env_id = spec.id;
  if (options.agent.empty()) options.agent = default_agent(registry, spec, options);
  for (nlohmann::json& config : options.env_configs)
    config = spec.training_config(std::move(config), action_kind(options.agent));
  return options;
}

// How to reach the action space an agent needs: the env's action_mode where it has one (memtier),
// else the other agent.
std::string switch_hint(const nlohmann::json& config, const std::string& mode,
                        const std::string& other_agent) {
  if (config.contains("action_mode"))
    return " (set \"action_mode\": \"" + mode + "\", or use " + other_agent + ")";
  return " (use " + other_agent + ")";
}

void push_recent(std::vector<double>& recent, double value) {
  recent.push_back(value);
  if (recent.size() > kRecentEpisodes) recent.erase(recent.begin());
}

double mean(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// Seeds of ranks' envs and exploration, apart from every other use of the seed.
constexpr std::uint64_t kRankStream = 0x52414E4B00000000ULL;

}  // namespace

std::vector<std::string> fitting_agents(const Registry& registry, const EnvSpec& spec,
                                        const nlohmann::json& config, const Env& made) {
  std::vector<std::string> out;
  // Most envs train on the config they were made with; making one again (SQLite's program is
  // 4.7 MB of JSON) only where the training hook changes it.
  for (const std::string agent : {"dqn", "ppo"}) {
    const nlohmann::json training = spec.training_config(config, action_kind(agent));
    const bool fits = training == config
                          ? acts_in(agent, made.action_space())
                          : acts_in(agent, registry.make(spec.id, training)->action_space());
    if (fits) out.push_back(agent);
  }
  return out;
}

Trainer::Trainer(const Registry& registry, TrainerOptions options, ParallelFor parallel_for,
                 Collective* collective)
    : options_(with_training_configs(registry, std::move(options))),
      envs_(make_envs(registry, options_, std::move(parallel_for))),
      obs_size_(envs_.observation_space().flat_size()),
      action_size_(envs_.action_space().flat_size()),
      collective_(collective) {
  const profiling::Scope setup(profiling::ops::kTrainerSetup);
  const Space& actions = envs_.action_space();
  const auto k = envs_.size();
  const int obs = static_cast<int>(obs_size_);
  if (options_.agent == "dqn") {
    if (!acts_in("dqn", actions)) {
      throw ConfigError("dqn needs a Discrete action space; " + options_.env_id + " has " +
                        actions.to_string() +
                        switch_hint(envs_.env(0).config(), "discrete", "ppo"));
    }
    dqn_ = std::make_unique<DqnAgent>(obs, static_cast<int>(actions.n()),
                                      DqnConfig::from_json(options_.agent_config), options_.seed,
                                      envs_.env(0).entity_layout());
  } else if (options_.agent == "ppo") {
    if (!acts_in("ppo", actions)) {
      throw ConfigError("ppo needs a MultiBinary or Discrete(2) action space; " + options_.env_id +
                        " has " + actions.to_string() +
                        switch_hint(envs_.env(0).config(), "bins", "dqn"));
    }
    ppo_ = std::make_unique<PpoAgent>(obs, static_cast<int>(action_size_), static_cast<int>(k),
                                      PpoConfig::from_json(options_.agent_config), options_.seed,
                                      envs_.env(0).entity_layout());
  } else {
    throw ConfigError("unknown agent " + quote(options_.agent) + " (dqn or ppo)");
  }
  if (collective_ != nullptr && dqn_)
    apex_ = std::make_unique<ApexExchange>(*collective_, *dqn_, k);
  layout_ = envs_.env(0).observation_layout();
  metric_ = envs_.env(0).primary_metric();
  returns_.assign(k, 0.0);
  actions_.assign(k * action_size_, 0.0);
  start_episodes(options_.seed);
  next_point_ = options_.curve_every;
}

void Trainer::start_episodes(std::uint64_t seed) {
  if (collective_ == nullptr) {
    envs_.reset(seed);
    return;
  }
  // Ranks step envs of their own, the same configs seeded apart (rank 0 as one process would),
  // and explore apart.
  const std::uint64_t own = derive_seed(seed, kRankStream + collective_->rank());
  if (ppo_) {
    ppo_->set_collective(collective_, own);
  } else {
    dqn_->reseed(own);
  }
  envs_.reset(collective_->rank() == 0 ? seed : own);
}

void Trainer::vector_step() {
  const profiling::Scope scope(profiling::ops::kTrainerStep);
  const std::size_t k = envs_.size();
  obs_.assign(envs_.observations().begin(), envs_.observations().end());
  if (dqn_) {
    for (std::size_t i = 0; i < k; ++i)
      actions_[i] = dqn_->act(std::span<const float>(obs_).subspan(i * obs_size_, obs_size_), true);
  } else {
    ppo_->act(obs_, true, actions_);
  }
  envs_.step(actions_);
  for (std::size_t i = 0; i < k; ++i) {
    const bool ended = envs_.terminated()[i] != 0 || envs_.truncated()[i] != 0;
    returns_[i] += envs_.rewards()[i];
    if (dqn_) {
      const std::span<const float> next =
          (ended ? envs_.final_observations() : envs_.observations())
              .subspan(i * obs_size_, obs_size_);
      const std::span<const float> obs =
          std::span<const float>(obs_).subspan(i * obs_size_, obs_size_);
      const auto action = static_cast<int>(actions_[i]);
      if (apex_) {
        apex_->keep(obs, action, envs_.rewards()[i], next, envs_.terminated()[i] != 0);
      } else {
        dqn_->observe(obs, action, envs_.rewards()[i], next, envs_.terminated()[i] != 0);
      }
    }
    if (ended) finish_episode(i);
  }
  if (ppo_) {
    ppo_->record(envs_.rewards(), envs_.terminated(), envs_.truncated(),
                 envs_.final_observations());
    if (ppo_->ready()) ppo_last_ = ppo_->update(envs_.observations());
  }
  env_steps_ += static_cast<std::int64_t>(k) * (collective_ != nullptr ? collective_->size() : 1);
}

void Trainer::step() {
  if (!apex_) {
    vector_step();
    return;
  }
  for (std::int64_t s = 0; s < apex_->steps_per_round(); ++s)
    vector_step();
  apex_->finish_round();
}

void Trainer::finish_episode(std::size_t k) {
  ++episodes_;
  push_recent(recent_returns_, returns_[k]);
  if (!metric_.empty()) push_recent(recent_metrics_, envs_.final_summary(k).value(metric_, 0.0));
  returns_[k] = 0.0;
}

CurvePoint Trainer::gathered_point() const {
  if (collective_ == nullptr) return current();
  std::vector<double> sums = {
      std::accumulate(recent_returns_.begin(), recent_returns_.end(), 0.0),
      static_cast<double>(recent_returns_.size()),
      std::accumulate(recent_metrics_.begin(), recent_metrics_.end(), 0.0),
      static_cast<double>(recent_metrics_.size()), static_cast<double>(episodes_),
      // PPO's value loss averaged over the ranks; DQN's is the learner's.
      dqn_ ? (apex_->learner() ? dqn_->last_loss() : 0.0) : ppo_last_.value_loss};
  collective_->sum(sums);
  return {env_steps_, static_cast<std::int64_t>(sums[4]), sums[1] > 0 ? sums[0] / sums[1] : 0.0,
          sums[3] > 0 ? sums[2] / sums[3] : 0.0, dqn_ ? sums[5] : sums[5] / collective_->size()};
}

CurvePoint Trainer::current() const {
  // Distributed: the last point gathered over the ranks (a rank alone knows only its envs).
  if (collective_ != nullptr && !curve_.empty()) return curve_.back();
  return {env_steps_, episodes_, mean(recent_returns_), mean(recent_metrics_),
          dqn_ ? dqn_->last_loss() : ppo_last_.value_loss};
}

bool Trainer::advance(std::int64_t target) {
  while (env_steps_ < target) {
    step();
    if (env_steps_ >= next_point_) {
      // One point however many intervals the step crossed (an Ape-X round can cross several).
      next_point_ += options_.curve_every * (1 + (env_steps_ - next_point_) / options_.curve_every);
      curve_.push_back(gathered_point());
      return true;
    }
  }
  return false;
}

void Trainer::train_until(std::int64_t target,
                          const std::function<void(const CurvePoint&)>& on_point) {
  while (env_steps_ < target) {
    if (advance(target) && on_point) on_point(curve_.back());
  }
  // Distributed, the totals a rank reports come from the last point gathered over every rank.
  if (collective_ != nullptr && (curve_.empty() || curve_.back().env_steps != env_steps_))
    curve_.push_back(gathered_point());
}

PolicyFile Trainer::policy() const {
  PolicyFile p;
  p.agent = options_.agent;
  p.env_id = envs_.env(0).id();
  p.env_config = envs_.env(0).config();
  p.action_space = envs_.action_space().to_string();
  p.observation_layout = layout_;
  if (dqn_) {
    p.normalizer = dqn_->normalizer();
    p.network = dqn_->q_network();
    p.per_bin = dqn_->bin_view();
    if (p.per_bin) p.value_network = dqn_->value_network();
    p.agent_config = dqn_->config().to_json();
  } else {
    p.network = ppo_->policy_network();
    p.per_bin = ppo_->bin_view();
    // A per-bin network reads raw features; only the value network (not saved) normalises.
    p.normalizer = p.per_bin ? ObservationNormalizer(layout_.size(), false) : ppo_->normalizer();
    p.agent_config = ppo_->config().to_json();
  }
  nlohmann::json envs = nlohmann::json::array();
  for (std::size_t i = 0; i < envs_.size(); ++i)
    envs.push_back(envs_.env(i).config());
  const CurvePoint now = current();
  p.training = {{"seed", options_.seed},
                {"env_steps", env_steps_},
                {"episodes", collective_ != nullptr ? now.episodes : episodes_},
                {"envs", std::move(envs)},
                {"final_mean_return", now.mean_return}};
  if (!metric_.empty()) p.training["final_mean_" + metric_] = now.mean_metric;
  // Distributed DQN: the learner's (rank 0 writes the file).
  p.training["updates"] = dqn_ ? dqn_->updates() : ppo_->updates();
  if (collective_ != nullptr) p.training["ranks"] = collective_->size();
  return p;
}

namespace {

constexpr const char* kStateKind = "sysgym-training-state";
constexpr int kStateVersion = 1;

nlohmann::json options_json(const TrainerOptions& o) {
  return {{"agent", o.agent},   {"agent_config", o.agent_config},
          {"env_id", o.env_id}, {"env_configs", o.env_configs},
          {"seed", o.seed},     {"curve_every", o.curve_every}};
}

nlohmann::json point_json(const CurvePoint& p) {
  return nlohmann::json::array({p.env_steps, p.episodes, p.mean_return, p.mean_metric, p.loss});
}

CurvePoint point_of(const nlohmann::json& j) {
  return {json_integer<std::int64_t>(j.at(0)), json_integer<std::int64_t>(j.at(1)),
          j.at(2).get<double>(), j.at(3).get<double>(), j.at(4).get<double>()};
}

}  // namespace

nlohmann::json Trainer::state() const {
  nlohmann::json curve = nlohmann::json::array();
  for (const CurvePoint& p : curve_)
    curve.push_back(point_json(p));
  return {{"kind", kStateKind},
          {"version", kStateVersion},
          {"options", options_json(options_)},
          {"env_steps", env_steps_},
          // Distributed: every rank's episodes (the state is rank 0's, read by any rank count).
          {"episodes", collective_ != nullptr ? current().episodes : episodes_},
          {"next_point", next_point_},
          {"curve", std::move(curve)},
          {"recent_returns", recent_returns_},
          {"recent_metrics", recent_metrics_},
          {"last_value_loss", ppo_last_.value_loss},
          {"agent", dqn_ ? dqn_->state() : ppo_->state()}};
}

TrainerOptions Trainer::options_of_state(const nlohmann::json& j) {
  if (!j.is_object() || j.value("kind", nlohmann::json()) != kStateKind) {
    throw ConfigError("not a sysgym training state (no \"kind\": \"" + std::string(kStateKind) +
                      "\")");
  }
  if (j.value("version", nlohmann::json()) != kStateVersion) {
    throw ConfigError("training state version " + j.value("version", nlohmann::json()).dump() +
                      " is not supported (this sysgym reads version " +
                      std::to_string(kStateVersion) + ")");
  }
  try {
    const nlohmann::json& o = j.at("options");
    TrainerOptions options;
    options.agent = o.at("agent").get<std::string>();
    options.agent_config = o.at("agent_config");
    options.env_id = o.at("env_id").get<std::string>();
    options.env_configs = o.at("env_configs").get<std::vector<nlohmann::json>>();
    options.seed = json_integer<std::uint64_t>(o.at("seed"));
    options.curve_every = json_integer<std::int64_t>(o.at("curve_every"));
    return options;
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(std::string("training state: malformed \"options\": ") + json_problem(e));
  }
}

void Trainer::load_state(const nlohmann::json& j) {
  const nlohmann::json mine = options_json(options_);
  const nlohmann::json theirs = options_json(options_of_state(j));
  for (const auto& [key, value] : mine.items()) {
    if (theirs[key] != value) {
      throw ConfigError("training state was made with another " + quote(key) + " (" +
                        theirs[key].dump().substr(0, 200) + ")");
    }
  }
  try {
    env_steps_ = json_integer<std::int64_t>(j.at("env_steps"));
    episodes_ = json_integer<std::int64_t>(j.at("episodes"));
    next_point_ = json_integer<std::int64_t>(j.at("next_point"));
    curve_.clear();
    for (const nlohmann::json& p : j.at("curve"))
      curve_.push_back(point_of(p));
    recent_returns_ = j.at("recent_returns").get<std::vector<double>>();
    // States written before the generic trainer named the metric list "recent_gaps".
    recent_metrics_ = j.at(j.contains("recent_metrics") ? "recent_metrics" : "recent_gaps")
                          .get<std::vector<double>>();
    ppo_last_.value_loss = j.at("last_value_loss").get<double>();
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError("training state: " + json_problem(e));
  }
  if (dqn_) {
    dqn_->load_state(j.at("agent"));
  } else {
    ppo_->load_state(j.at("agent"));
  }
  // New episodes, seeded apart from the first run's (which reset with the bare seed).
  std::fill(returns_.begin(), returns_.end(), 0.0);
  // Distributed, with any number of ranks: rank 0 carries the state's totals and recent
  // episodes (its sums over the ranks are then the state's).
  if (collective_ != nullptr && collective_->rank() != 0) {
    episodes_ = 0;
    recent_returns_.clear();
    recent_metrics_.clear();
    if (apex_) dqn_->release_replay();  // the learner's alone
  }
  start_episodes(options_.seed ^ (static_cast<std::uint64_t>(env_steps_) * 0x9e3779b97f4a7c15ULL));
}

}  // namespace sysgym::agents
