#include "env/check_env.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "base/error.hpp"
#include "env/episode.hpp"

namespace sysgym {
namespace {

// One recorded step of an env, compared bit for bit.
struct Trajectory {
  std::vector<std::vector<float>> observations;
  std::vector<double> rewards;
  std::vector<std::vector<double>> infos;
  std::vector<std::uint8_t> frames;  // every frame's bytes, in order
};

bool same_bits(const Trajectory& a, const Trajectory& b) {
  auto bytes_equal = [](const auto& x, const auto& y) {
    // memcmp may not be given the null data() of an empty vector.
    return x.size() == y.size() &&
           (x.empty() || std::memcmp(x.data(), y.data(), x.size() * sizeof(x.front())) == 0);
  };
  if (a.observations.size() != b.observations.size() || !bytes_equal(a.rewards, b.rewards))
    return false;
  for (std::size_t i = 0; i < a.observations.size(); ++i) {
    if (!bytes_equal(a.observations[i], b.observations[i]) || !bytes_equal(a.infos[i], b.infos[i]))
      return false;
  }
  return bytes_equal(a.frames, b.frames);
}

// What a frame declares: each array's name, type and size, which an episode keeps.
std::string frame_shape(const Frame& frame) {
  std::string shape;
  for (const FrameArray& a : frame) {
    shape += (shape.empty() ? "" : ", ") + a.name + ": " + std::string(a.dtype()) + "[" +
             std::to_string(a.size()) + "]";
  }
  return shape.empty() ? "no arrays" : shape;
}

class Checker {
 public:
  Checker(const Registry& envs, const PolicyRegistry& policies, std::string_view id,
          const EnvCheckOptions& options)
      : envs_(envs), policies_(policies), options_(options), id_(envs.resolve(id)) {
    config_ = envs.spec(id_).example_config;
    if (!options.config.is_object()) fail("the config to check with is not a JSON object");
    config_.update(options.config);
  }

  std::vector<std::string> run() {
    std::unique_ptr<Env> env = make();
    check_describe(*env);
    check_order(*env);
    const Trajectory first = play(*env, options_.seed);
    passed("observations lie in " + env->observation_space().to_string() + " over " +
           std::to_string(first.rewards.size()) + " steps; rewards and infos are finite");
    passed("frame() keeps its layout (" + frame_shape_ + ") through the episode, values finite");
    check_determinism(first);
    check_bad_actions();
    check_config_round_trip(*env);
    check_policies();
    return passed_;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw EnvCheckError("check_env(" + id_ + "): " + what);
  }
  void passed(std::string what) { passed_.push_back(std::move(what)); }

  std::unique_ptr<Env> make() const { return envs_.make(id_, config_); }

  void check_observation(const Env& env, const char* when) const {
    const std::span<const float> obs = env.observation();
    if (obs.size() != env.observation_space().flat_size()) {
      fail(std::string("the observation ") + when + " has " + std::to_string(obs.size()) +
           " values, the observation space " + std::to_string(env.observation_space().flat_size()));
    }
    values_.assign(obs.begin(), obs.end());
    if (!env.observation_space().contains(values_)) {
      fail(std::string("the observation ") + when + " " + format_values(values_) + " is not in " +
           env.observation_space().to_string());
    }
  }

  // The frame after reset declares the layout; every step's frame must keep it.
  void check_frame(const Env& env, bool at_reset, const std::string& when, Trajectory& t) {
    const Frame frame = env.frame();
    const std::string shape = frame_shape(frame);
    if (at_reset) {
      std::set<std::string> names;
      for (const FrameArray& a : frame) {
        if (a.name.empty() || !names.insert(a.name).second)
          fail("frame() has an unnamed or repeated array name '" + a.name + "'");
      }
      if (!env.frame_context().is_object()) fail("frame_context() is not a JSON object");
      frame_shape_ = shape;
    } else if (shape != frame_shape_) {
      fail("the frame " + when + " is " + shape + ", after reset it was " + frame_shape_);
    }
    for (const FrameArray& a : frame) {
      std::visit(
          [&](const auto& values) {
            for (const auto v : values)
              check_finite(static_cast<double>(v), "frame '" + a.name + "' " + when);
            const auto* bytes = reinterpret_cast<const std::uint8_t*>(values.data());
            t.frames.insert(t.frames.end(), bytes, bytes + values.size_bytes());
          },
          a.values);
    }
  }

  void check_finite(double value, const std::string& what) const {
    if (!std::isfinite(value)) fail(what + " is " + std::to_string(value));
  }

  void check_info(const InfoView& info, const Env& env, const char* when) const {
    if (info.values.size() != env.info_keys().size()) fail(std::string("info ") + when + " size");
    for (std::size_t i = 0; i < info.values.size(); ++i)
      check_finite(info.values[i], std::string("info '") + env.info_keys()[i] + "' " + when);
  }

  void check_describe(const Env& env) {
    const std::vector<std::string> layout = env.observation_layout();
    if (layout.size() != env.observation_space().flat_size()) {
      fail("observation_layout() names " + std::to_string(layout.size()) + " elements of " +
           std::to_string(env.observation_space().flat_size()));
    }
    if (std::set<std::string>(layout.begin(), layout.end()).size() != layout.size())
      fail("observation_layout() names an element twice");
    if (std::set<std::string>(env.info_keys().begin(), env.info_keys().end()).size() !=
        env.info_keys().size()) {
      fail("info_keys() names a key twice");
    }
    passed("observation_layout() names each of " + std::to_string(layout.size()) +
           " elements once");
    check_entities(env);
  }

  // A declared entity layout must fit the spaces, or agents reading it would read past them.
  void check_entities(const Env& env) {
    const std::optional<EntityLayout> e = env.entity_layout();
    if (!e) return;
    const std::size_t values = static_cast<std::size_t>(std::max(e->channels, 0)) *
                               static_cast<std::size_t>(std::max(e->count, 0));
    if (e->count < 1 || e->channels < 1 || values > env.observation_space().flat_size())
      fail("entity_layout() " + e->to_json().dump() + " does not fit the observation");
    if (e->state_channel < -1 || e->state_channel >= e->channels)
      fail("entity_layout() state_channel " + std::to_string(e->state_channel) + " is no channel");
    const Space& actions = env.action_space();
    const std::size_t verbs = e->verbs.size();
    const bool fits = actions.kind() == SpaceKind::kDiscrete
                          ? verbs > 0 && static_cast<std::size_t>(actions.n()) ==
                                             1 + verbs * static_cast<std::size_t>(e->count)
                          : verbs == 0 && actions.flat_size() == static_cast<std::size_t>(e->count);
    if (!fits)
      fail("entity_layout() " + e->to_json().dump() + " does not fit " + actions.to_string());
    passed("entity_layout() (" + std::to_string(e->count) + " " + e->entity +
           "s) fits the observation and the actions");
  }

  void check_order(Env& env) {
    expect_error<ApiMisuseError>([&] { env.step(env.action_space().sample(rng_)); },
                                 "step() before reset()");
    passed("step() before reset() is an ApiMisuseError");
  }

  // One episode (capped) of actions sampled from an Rng seeded with `seed`.
  Trajectory play(Env& env, std::uint64_t seed) {
    Trajectory t;
    Rng actions(derive_seed(seed, 0x434845434B));
    const ResetResult r = env.reset(seed);
    check_observation(env, "at reset");
    check_info(r.info, env, "at reset");
    t.observations.emplace_back(r.observation.begin(), r.observation.end());
    t.infos.emplace_back(r.info.values.begin(), r.info.values.end());
    check_frame(env, true, "at reset", t);
    for (std::size_t i = 0; i < options_.max_steps; ++i) {
      const StepResult s = env.step(env.action_space().sample(actions));
      const std::string when = "after step " + std::to_string(i);
      check_observation(env, when.c_str());
      check_info(s.info, env, when.c_str());
      check_finite(s.reward, "the reward " + when);
      t.observations.emplace_back(s.observation.begin(), s.observation.end());
      t.rewards.push_back(s.reward);
      t.infos.emplace_back(s.info.values.begin(), s.info.values.end());
      check_frame(env, false, when, t);
      if (s.terminated || s.truncated) {
        expect_error<ApiMisuseError>([&] { env.step(env.action_space().sample(actions)); },
                                     "step() after the episode ended");
        ended_ = true;
        break;
      }
    }
    return t;
  }

  void check_determinism(const Trajectory& first) {
    std::unique_ptr<Env> other = make();
    if (!same_bits(first, play(*other, options_.seed)))
      fail("two envs reset with seed " + std::to_string(options_.seed) + " differ");
    if (!same_bits(first, play(*other, options_.seed)))
      fail("reset(" + std::to_string(options_.seed) + ") twice on one env starts differently");
    passed("episodes are bit-identical for a seed (two envs, and one env reset twice)");
    if (ended_) passed("step() after the episode ended is an ApiMisuseError");
  }

  void check_bad_actions() {
    std::unique_ptr<Env> env = make();
    env->reset(options_.seed);
    const Space& space = env->action_space();
    std::vector<double> wrong(space.flat_size() + 1, 0.0);
    expect_error<InvalidActionError>([&] { env->step(wrong); }, "an action of the wrong size");
    std::vector<double> nan = space.sample(rng_);
    nan[0] = std::numeric_limits<double>::quiet_NaN();
    expect_error<InvalidActionError>([&] { env->step(nan); }, "an action holding NaN");
    if (!env->episode_active()) fail("a refused action ended the episode");
    env->step(space.sample(rng_));
    passed("actions outside " + space.to_string() + " are InvalidActionErrors and change nothing");
  }

  void check_config_round_trip(const Env& env) {
    const nlohmann::json resolved = env.config();
    std::unique_ptr<Env> again = envs_.make(id_, resolved);
    if (again->config() != resolved)
      fail("the env made from its resolved config resolves it differently");
    passed("the resolved config makes the same env");
  }

  void check_policies() {
    std::size_t played = 0;
    std::unique_ptr<Env> env = make();
    for (const std::string& name : policies_.standalone_names(id_)) {
      auto policy = policies_.make(name, id_);
      const EpisodeRecord record = run_episode(*env, *policy, name, options_.seed, true);
      const nlohmann::json recording = episode_to_json(record, *env);
      check_summary(record.summary, *env);
      // Replayed on the env that played it: the recording's reset puts it back where it began.
      if (replay_episode(*env, recording) != record.summary)
        fail("policy '" + name + "': the recording replays to another summary");
      ++played;
    }
    passed(std::to_string(played) +
           " policies play an episode whose recording replays to the same summary");
  }

  void check_summary(const nlohmann::json& summary, const Env& env) const {
    if (!summary.is_object()) fail("episode_summary() is not a JSON object");
    for (const auto& [key, value] : summary.items()) {
      if (!value.is_number()) fail("episode_summary() '" + key + "' is not a number");
    }
    const std::string metric = env.primary_metric();
    if (!metric.empty() && !summary.contains(metric))
      fail("primary_metric() '" + metric + "' is not a key of episode_summary()");
    const std::string ranked = env.ranking().key;
    if (!ranked.empty() && !summary.contains(ranked))
      fail("ranking() key '" + ranked + "' is not a key of episode_summary()");
  }

  template <typename E, typename F>
  void expect_error(F&& f, const std::string& what) const {
    try {
      f();
    } catch (const E&) {
      return;
    } catch (const Error& e) {
      fail(what + " threw " + e.kind() + ", expected " + E("").kind() + ": " + e.what());
    }
    fail(what + " was accepted");
  }

  const Registry& envs_;
  const PolicyRegistry& policies_;
  EnvCheckOptions options_;
  std::string id_;
  nlohmann::json config_;
  Rng rng_{0};
  bool ended_ = false;
  std::string frame_shape_;
  mutable std::vector<double> values_;
  std::vector<std::string> passed_;
};

}  // namespace

std::vector<std::string> check_env(const Registry& envs, const PolicyRegistry& policies,
                                   std::string_view id, const EnvCheckOptions& options) {
  return Checker(envs, policies, id, options).run();
}

}  // namespace sysgym
