// Recorded episodes (`sysgym run --record`) replayed on the small built-in pair.
#include "env/episode.hpp"
#include "fuzz_support.hpp"
#include "memtier/memtier_env.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym;
  return fuzz::expecting_errors([&] {
    nlohmann::json episode = nlohmann::json::parse(fuzz::text(data, size));
    nlohmann::json config = episode.is_object() ? episode.value("config", nlohmann::json::object())
                                                : nlohmann::json::object();
    if (config.is_object()) config["trace"] = fuzz::kSmallTrace;
    memtier::MemtierEnv env(config, fuzz::small_source());
    replay_episode(env, episode);
  });
}
