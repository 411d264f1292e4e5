#include "memtier/episode.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/error.hpp"
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

EpisodeRecord run_episode(MemtierEnv& env, Policy& policy, const std::string& policy_name,
                          std::uint64_t seed, bool record) {
  EpisodeRecord out;
  out.policy = policy_name;
  out.policy_parameters = policy.parameters();
  out.seed = seed;
  out.observation_hash = chain_hash(0, env.reset(seed).observation);
  out.start = env.next_window();
  Rng rng(derive_seed(seed, 0x504F4C49));  // the policy's own stream
  policy.reset(env, rng);
  Decision decision;
  for (;;) {
    policy.decide(env, decision);
    const StepResult r = apply(env, decision);
    out.observation_hash = chain_hash(out.observation_hash, r.observation);
    if (record)
      out.steps.push_back({decision, r.reward, {r.info.values.begin(), r.info.values.end()}});
    if (r.terminated || r.truncated) break;
    policy.observe(env);
  }
  out.summary = env.summary();
  return out;
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

EpisodeSummary replay_episode(MemtierEnv& env, const nlohmann::json& episode) {
  auto malformed = [](const std::string& what) {
    throw TraceFormatError("recorded episode: " + what);
  };
  if (!episode.is_object() || episode.value("kind", "") != "sysgym-episode") {
    malformed("not a sysgym episode (no \"kind\": \"sysgym-episode\")");
  }
  if (episode.value("schema_version", 0) != kEpisodeSchemaVersion) {
    malformed("schema_version " + episode.value("schema_version", nlohmann::json()).dump() +
              " is not supported (this build reads " + std::to_string(kEpisodeSchemaVersion) + ")");
  }
  try {
    env.reset(episode.at("seed").get<std::uint64_t>(),
              {{"start", episode.at("start").get<std::int64_t>()}});
    const nlohmann::json& steps = episode.at("steps");
    Decision d;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const nlohmann::json& step = steps[i];
      d.use_action = step.contains("action");
      if (d.use_action) {
        d.action = step.at("action").get<std::vector<double>>();
      } else if (step.value("same_ranges", false)) {
        if (i == 0 || steps[i - 1].contains("action"))
          malformed("step " + std::to_string(i) + " repeats no placement");
      } else {
        d.ranges.clear();
        for (const auto& text : step.at("ranges"))
          d.ranges.push_back(parse_address_range(text.get<std::string>()));
      }
      const StepResult r = apply(env, d);
      if (r.reward != step.at("reward").get<double>()) {
        throw ApiMisuseError("recorded episode: step " + std::to_string(i) +
                             " replays with reward " + nlohmann::json(r.reward).dump() +
                             ", recorded " + step.at("reward").dump() +
                             " (different trace, config or build)");
      }
      if ((r.terminated || r.truncated) != (i + 1 == steps.size())) {
        malformed("step " + std::to_string(i) +
                  (i + 1 == steps.size() ? " is the last recorded but the episode goes on"
                                         : " ends the episode before the recording does"));
      }
    }
  } catch (const nlohmann::json::exception& e) {
    malformed(e.what());
  }
  return env.summary();
}

}  // namespace sysgym::memtier
