#include "env/episode.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/units.hpp"
#include "profiling/ops.hpp"

namespace sysgym {
namespace {

StepResult apply(Env& env, const std::vector<double>& action, const Directive* directive) {
  return directive != nullptr ? env.step_directive(*directive) : env.step(action);
}

// Seeds the policy's own Rng apart from the env's (same seed, different stream).
constexpr std::uint64_t kPolicyStream = 0x504F4C49;

}  // namespace

std::uint64_t chain_hash(std::uint64_t hash, std::span<const float> observation) {
  return XXH3_64bits_withSeed(observation.data(), observation.size_bytes(), hash);
}

PolicyEpisode::PolicyEpisode(Env& env, Policy& policy, const std::string& policy_name,
                             std::uint64_t seed, bool record)
    : env_(env), policy_(policy), recording_(record), rng_(derive_seed(seed, kPolicyStream)) {
  record_.policy = policy_name;
  record_.policy_parameters = policy.parameters();
  record_.seed = seed;
  record_.observation_hash = chain_hash(0, env.reset(seed).observation);
  record_.reset_options = env.episode_options();
  policy.reset(env, rng_);
}

StepResult PolicyEpisode::step() {
  if (done_) throw ApiMisuseError("the episode is over: no step left to play");
  {
    const profiling::Scope scope(profiling::ops::kPolicyAct);
    policy_.decide(env_, decision_);
  }
  const Directive* directive = decision_.use_directive ? decision_.directive.get() : nullptr;
  if (decision_.use_directive && directive == nullptr)
    throw ApiMisuseError("policy '" + record_.policy + "' chose a directive but gave none");
  const StepResult r = apply(env_, decision_.action, directive);
  record_.observation_hash = chain_hash(record_.observation_hash, r.observation);
  record_.episode_return += r.reward;
  record_.returns.push_back(record_.episode_return);
  if (recording_) {
    StepRecord& s = record_.steps.emplace_back();
    if (directive != nullptr) {
      s.directive = directive->clone();
    } else {
      s.action = decision_.action;
    }
    s.reward = r.reward;
    s.info.assign(r.info.values.begin(), r.info.values.end());
  }
  done_ = r.terminated || r.truncated;
  if (!done_) policy_.observe(env_);
  return r;
}

const EpisodeRecord& PolicyEpisode::record() {
  record_.summary = env_.episode_summary();
  return record_;
}

EpisodeRecord PolicyEpisode::release() {
  record();
  return std::move(record_);
}

EpisodeRecord run_episode(Env& env, Policy& policy, const std::string& policy_name,
                          std::uint64_t seed, bool record) {
  PolicyEpisode episode(env, policy, policy_name, seed, record);
  while (!episode.done())
    episode.step();
  return episode.release();
}

nlohmann::json episode_to_json(const EpisodeRecord& episode, const Env& env) {
  nlohmann::json steps = nlohmann::json::array();
  const Directive* previous = nullptr;
  for (const StepRecord& s : episode.steps) {
    nlohmann::json step = nlohmann::json::object();
    if (s.directive) {
      s.directive->record(step, previous);
      previous = s.directive.get();
    } else {
      step["action"] = s.action;
      previous = nullptr;
    }
    step["reward"] = s.reward;
    step["info"] = s.info;
    steps.push_back(std::move(step));
  }
  return {{"schema_version", kEpisodeSchemaVersion},
          {"kind", "sysgym-episode"},
          {"env", env.id()},
          {"config", env.given_config()},
          {"resolved_config", env.config()},
          {"facts", env.facts()},
          {"policy", episode.policy},
          {"policy_parameters", episode.policy_parameters},
          {"seed", episode.seed},
          {"reset_options", episode.reset_options},
          {"info_keys", env.info_keys()},
          {"steps", steps},
          {"observation_hash", format_hex(episode.observation_hash)},
          {"return", episode.episode_return},
          {"summary", episode.summary}};
}

namespace {

[[noreturn]] void malformed(const std::string& what) {
  throw TraceFormatError("recorded episode: " + what);
}

// Version 1 recordings (memtier only) kept the first window at the top level.
nlohmann::json reset_options_of(const nlohmann::json& episode) {
  if (episode.at("schema_version") == 1)
    return {{"start", json_integer<std::int64_t>(episode.at("start"))}};
  const nlohmann::json& options = episode.at("reset_options");
  if (!options.is_object()) malformed("\"reset_options\" is not an object");
  return options;
}

void check_recording_header(const nlohmann::json& episode) {
  // Compared as JSON values, so a "kind" or "schema_version" of another type is a mismatch too.
  if (!episode.is_object() || episode.value("kind", nlohmann::json()) != "sysgym-episode") {
    malformed("not a sysgym episode (no \"kind\": \"sysgym-episode\")");
  }
  const nlohmann::json version = episode.value("schema_version", nlohmann::json());
  if (version != 1 && version != kEpisodeSchemaVersion) {
    malformed("schema_version " + version.dump() + " is not supported (this build reads 1 and " +
              std::to_string(kEpisodeSchemaVersion) + ")");
  }
}

}  // namespace

std::unique_ptr<Env> make_recorded_env(const Registry& envs, const nlohmann::json& episode) {
  check_recording_header(episode);
  const nlohmann::json id = episode.value("env", nlohmann::json());
  if (!id.is_string()) malformed("no \"env\" id to make its env from");
  if (!episode.contains("config")) malformed("no \"config\" to make its env from");
  return envs.make(id.get<std::string>(), episode["config"]);
}

EpisodeReplay::EpisodeReplay(Env& env, const nlohmann::json& episode) : env_(env) {
  check_recording_header(episode);
  try {
    steps_ = &episode.at("steps");
    if (!steps_->is_array()) malformed("\"steps\" is not an array");
    env.reset(json_integer<std::uint64_t>(episode.at("seed")), reset_options_of(episode));
  } catch (const nlohmann::json::exception& e) {
    malformed(json_problem(e));
  }
}

StepResult EpisodeReplay::step() {
  if (done()) throw ApiMisuseError("the recorded episode is over: no step left to replay");
  const std::size_t i = next_;
  const nlohmann::json& step = (*steps_)[i];
  StepResult r;
  try {
    if (!step.is_object()) malformed("step " + std::to_string(i) + " is not an object");
    const Directive* directive = nullptr;
    if (step.contains("action")) {
      action_ = step.at("action").get<std::vector<double>>();
      directive_.reset();
    } else if (read_directive(step, i)) {
      directive = directive_.get();
    } else {
      malformed("step " + std::to_string(i) + " has neither an \"action\" nor a directive of " +
                env_.id());
    }
    r = apply(env_, action_, directive);
    if (r.reward != step.at("reward").get<double>()) {
      throw ApiMisuseError("recorded episode: step " + std::to_string(i) + " replays with reward " +
                           nlohmann::json(r.reward).dump() + ", recorded " +
                           step.at("reward").dump() + " (different data, config or build)");
    }
  } catch (const nlohmann::json::exception& e) {
    malformed("step " + std::to_string(i) + ": " + json_problem(e));
  }
  ++next_;
  if ((r.terminated || r.truncated) != done()) {
    malformed("step " + std::to_string(i) +
              (done() ? " is the last recorded but the episode goes on"
                      : " ends the episode before the recording does"));
  }
  return r;
}

bool EpisodeReplay::read_directive(const nlohmann::json& step, std::size_t index) {
  try {
    return env_.read_directive(step, directive_);
  } catch (const TraceFormatError& e) {
    malformed("step " + std::to_string(index) + " " + e.what());
  }
}

nlohmann::json replay_episode(Env& env, const nlohmann::json& episode) {
  EpisodeReplay replay(env, episode);
  while (!replay.done())
    replay.step();
  return env.episode_summary();
}

}  // namespace sysgym
