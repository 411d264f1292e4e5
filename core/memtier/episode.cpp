#include "memtier/episode.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "traces/text_scan.hpp"

namespace sysgym::memtier {
namespace {

StepResult apply(MemtierEnv& env, const Decision& d) {
  return d.use_action ? env.step(d.action) : env.step_placement(d.ranges);
}

std::uint64_t chain_hash(std::uint64_t hash, std::span<const float> observation) {
  return XXH3_64bits_withSeed(observation.data(), observation.size_bytes(), hash);
}

}  // namespace

PolicyEpisode::PolicyEpisode(MemtierEnv& env, Policy& policy, const std::string& policy_name,
                             std::uint64_t seed, bool record)
    : env_(env), policy_(policy), recording_(record), rng_(derive_seed(seed, 0x504F4C49)) {
  record_.policy = policy_name;
  record_.policy_parameters = policy.parameters();
  record_.seed = seed;
  record_.observation_hash = chain_hash(0, env.reset(seed).observation);
  record_.start = env.next_window();
  policy.reset(env, rng_);
}

StepResult PolicyEpisode::step() {
  if (done_) throw ApiMisuseError("the episode is over: no window left to play");
  policy_.decide(env_, decision_);
  const StepResult r = apply(env_, decision_);
  record_.observation_hash = chain_hash(record_.observation_hash, r.observation);
  if (recording_)
    record_.steps.push_back({decision_, r.reward, {r.info.values.begin(), r.info.values.end()}});
  done_ = r.terminated || r.truncated;
  if (!done_) policy_.observe(env_);
  return r;
}

const EpisodeRecord& PolicyEpisode::record() {
  record_.summary = env_.summary();
  return record_;
}

EpisodeRecord run_episode(MemtierEnv& env, Policy& policy, const std::string& policy_name,
                          std::uint64_t seed, bool record) {
  PolicyEpisode episode(env, policy, policy_name, seed, record);
  while (!episode.done())
    episode.step();
  return episode.record();
}

nlohmann::json episode_to_json(const EpisodeRecord& episode, const MemtierEnv& env) {
  nlohmann::json steps = nlohmann::json::array();
  const std::vector<AddressRange>* previous = nullptr;
  for (const StepRecord& s : episode.steps) {
    nlohmann::json step;
    if (s.decision.use_action) {
      step["action"] = s.decision.action;
      previous = nullptr;
    } else if (previous != nullptr && *previous == s.decision.ranges) {
      step["same_ranges"] = true;  // placements often repeat: recorded once
    } else {
      previous = &s.decision.ranges;
      nlohmann::json ranges = nlohmann::json::array();
      for (const AddressRange& r : s.decision.ranges)
        ranges.push_back(format_hex(r.lo) + ":" + format_hex(r.hi));
      step["ranges"] = ranges;
    }
    step["reward"] = s.reward;
    step["info"] = s.info;
    steps.push_back(step);
  }
  return {{"schema_version", kEpisodeSchemaVersion},
          {"kind", "sysgym-episode"},
          {"env", env.id()},
          {"config", env.settings().input},
          {"resolved_config", env.config()},
          {"facts", env.facts()},
          {"policy", episode.policy},
          {"policy_parameters", episode.policy_parameters},
          {"seed", episode.seed},
          {"start", episode.start},
          {"info_keys", env.info_keys()},
          {"steps", steps},
          {"observation_hash", format_hex(episode.observation_hash)},
          {"summary", episode.summary.to_json()}};
}

namespace {

[[noreturn]] void malformed(const std::string& what) {
  throw TraceFormatError("recorded episode: " + what);
}

}  // namespace

EpisodeReplay::EpisodeReplay(MemtierEnv& env, const nlohmann::json& episode) : env_(env) {
  // Compared as JSON values, so a "kind" or "schema_version" of another type is a mismatch too.
  if (!episode.is_object() || episode.value("kind", nlohmann::json()) != "sysgym-episode") {
    malformed("not a sysgym episode (no \"kind\": \"sysgym-episode\")");
  }
  if (episode.value("schema_version", nlohmann::json()) != kEpisodeSchemaVersion) {
    malformed("schema_version " + episode.value("schema_version", nlohmann::json()).dump() +
              " is not supported (this build reads " + std::to_string(kEpisodeSchemaVersion) + ")");
  }
  try {
    steps_ = &episode.at("steps");
    if (!steps_->is_array()) malformed("\"steps\" is not an array");
    env.reset(json_integer<std::uint64_t>(episode.at("seed")),
              {{"start", json_integer<std::int64_t>(episode.at("start"))}});
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
    decision_.use_action = step.contains("action");
    if (decision_.use_action) {
      decision_.action = step.at("action").get<std::vector<double>>();
    } else if (step.value("same_ranges", false)) {
      if (i == 0 || (*steps_)[i - 1].contains("action"))
        malformed("step " + std::to_string(i) + " repeats no placement");
    } else {
      decision_.ranges.clear();
      for (const auto& text : step.at("ranges"))
        decision_.ranges.push_back(parse_address_range(text.get<std::string>()));
    }
    r = apply(env_, decision_);
    if (r.reward != step.at("reward").get<double>()) {
      throw ApiMisuseError("recorded episode: step " + std::to_string(i) + " replays with reward " +
                           nlohmann::json(r.reward).dump() + ", recorded " +
                           step.at("reward").dump() + " (different trace, config or build)");
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

EpisodeSummary replay_episode(MemtierEnv& env, const nlohmann::json& episode) {
  EpisodeReplay replay(env, episode);
  while (!replay.done())
    replay.step();
  return env.summary();
}

}  // namespace sysgym::memtier
