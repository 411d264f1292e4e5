// Policy files (`sysgym train -o`): every field's checks, then acting in an env when it loads.
#include "agents/learned_policy.hpp"
#include "agents/policy_file.hpp"
#include "env/episode.hpp"
#include "fuzz_support.hpp"
#include "memtier/memtier_env.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym;
  return fuzz::expecting_errors([&] {
    const nlohmann::json j = nlohmann::json::parse(fuzz::text(data, size));
    const agents::PolicyFile file = agents::PolicyFile::from_json(j);
    nlohmann::json config = file.env_config;
    config["trace"] = fuzz::kSmallTrace;
    config["episode_length"] = 8;
    memtier::MemtierEnv env(config, fuzz::small_source());
    PolicyRegistry registry;
    agents::register_learned_policy(registry);
    auto policy = registry.make("learned", env.id(), j);
    run_episode(env, *policy, "learned", 0, false);
  });
}
