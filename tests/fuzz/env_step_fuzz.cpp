// memtier-v0 stepped with arbitrary action bytes. The first byte picks the action mode and bin
// count; then each step's action is the next bytes as values, in or out of the action space
// (out-of-space actions must be refused with InvalidActionError, never acted on).
#include "fuzz_support.hpp"
#include "memtier/memtier_env.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym;
  if (size == 0) return 0;
  const bool discrete = (data[0] & 1) != 0;
  const int bins = 1 + (data[0] >> 1) % 32;
  const nlohmann::json config = {{"trace", fuzz::kSmallTrace},
                                 {"bins", bins},
                                 {"hbm_capacity", "20%"},
                                 {"action_mode", discrete ? "discrete" : "bins"}};
  memtier::MemtierEnv env(config, fuzz::small_source());
  env.reset(data[0]);
  const std::size_t width = env.action_space().flat_size();
  std::vector<double> action(width);
  for (std::size_t at = 1; at + width <= size; at += width) {
    // Mostly valid values (0/1, small integers), sometimes far outside the space.
    for (std::size_t i = 0; i < width; ++i) {
      const std::uint8_t b = data[at + i];
      action[i] = b < 200 ? static_cast<double>(b % (discrete ? 2 * bins + 1 : 2))
                          : static_cast<double>(static_cast<std::int8_t>(b)) * 1.5;
    }
    try {
      const StepResult r = env.step(action);
      if (r.terminated || r.truncated) env.reset();
    } catch (const InvalidActionError&) {
    }
  }
  return 0;
}
