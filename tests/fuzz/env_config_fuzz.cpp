// memtier-v0 configs as JSON text: every key's parsing and validation, then a reset and a step.
// The trace is always the small built-in pair: the fuzzer explores the config, not trace sizes.
#include "fuzz_support.hpp"
#include "memtier/memtier_env.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym;
  return fuzz::expecting_errors([&] {
    nlohmann::json config = nlohmann::json::parse(fuzz::text(data, size));
    if (config.is_object()) config["trace"] = fuzz::kSmallTrace;
    memtier::MemtierEnv env(config, fuzz::small_source());
    env.reset(1);
    std::vector<double> action(env.action_space().flat_size(), 0.0);
    env.step(action);
  });
}
