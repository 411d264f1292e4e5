#include "tensorplace/platform.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "base/names.hpp"
#include "env/config_reader.hpp"

namespace sysgym::tensorplace {
namespace {

constexpr double kGB = 1e9;

Platform optane() {
  Platform p;
  p.name = "optane";
  // 24 cores x 2.3 GHz x 2 AVX-512 FMA units x 16 fp32 lanes x 2 FLOP.
  p.peak_flops = 3.5e12;
  // Six DDR4-2666 channels: ~105 GB/s read, ~70 GB/s write per socket.
  p.fast_read = 105 * kGB;
  p.fast_write = 70 * kGB;
  // Six interleaved Optane DC DIMMs (AutoTM's measurement).
  p.slow_read = 39.4 * kGB;
  p.slow_write = 13.9 * kGB;
  // AutoTM's move bandwidths: synchronous copies, and asynchronous ones on a helper thread.
  p.sync_to_fast = 29 * kGB;
  p.sync_to_slow = 12 * kGB;
  p.async_to_fast = 2 * kGB;
  p.async_to_slow = 2.5 * kGB;
  return p;
}

Platform gpu() {
  Platform p;
  p.name = "gpu";
  // AutoTM's GPU: an RTX 2080 Ti. fp32 peak: 4352 cores x 1.545 GHz boost x 2; GDDR6: a 352-bit
  // bus at 14 Gb/s per pin.
  p.peak_flops = 13.45e12;
  p.fast_read = p.fast_write = 616 * kGB;
  // Host memory over PCIe 3.0 x16: AutoTM moves at 12 GB/s in every direction, and copy engines
  // overlap kernels fully. A kernel reading host memory directly (zero-copy) goes at that rate
  // too; AutoTM's GPU runs forbid it, this model prices it.
  p.slow_read = p.slow_write = 12 * kGB;
  p.sync_to_fast = p.sync_to_slow = 12 * kGB;
  p.async_to_fast = p.async_to_slow = 12 * kGB;
  return p;
}

}  // namespace

std::vector<std::string> platform_names() {
  return {"gpu", "optane"};
}

Platform platform_named(const std::string& name) {
  if (name == "optane") return optane();
  if (name == "gpu") return gpu();
  throw UnknownNameError(unknown_name_message("platform", name, platform_names()));
}

nlohmann::json Platform::to_json() const {
  return {{"name", name},
          {"peak_flops", peak_flops},
          {"fast_read", fast_read},
          {"fast_write", fast_write},
          {"slow_read", slow_read},
          {"slow_write", slow_write},
          {"sync_to_fast", sync_to_fast},
          {"sync_to_slow", sync_to_slow},
          {"async_to_fast", async_to_fast},
          {"async_to_slow", async_to_slow},
          {"async_window", async_window}};
}

Platform platform_from_json(const nlohmann::json& j, const std::string& context) {
  if (j.is_string()) return platform_named(j.get<std::string>());
  ConfigReader reader(j, context);
  Platform p = platform_named(reader.choice("name", "optane", platform_names()));
  constexpr double kMax = 1e18;
  for (auto [key, field] : {std::pair{"peak_flops", &Platform::peak_flops},
                            {"fast_read", &Platform::fast_read},
                            {"fast_write", &Platform::fast_write},
                            {"slow_read", &Platform::slow_read},
                            {"slow_write", &Platform::slow_write},
                            {"sync_to_fast", &Platform::sync_to_fast},
                            {"sync_to_slow", &Platform::sync_to_slow},
                            {"async_to_fast", &Platform::async_to_fast},
                            {"async_to_slow", &Platform::async_to_slow}}) {
    p.*field = reader.number(key, p.*field, 1, kMax);
  }
  p.async_window =
      static_cast<std::uint32_t>(reader.integer("async_window", p.async_window, 0, 1 << 20));
  reader.finish();
  return p;
}

namespace {

// `pool_of(i)`: where operand i is.
template <typename PoolOf>
double timed(const Graph& graph, std::uint32_t k, const Platform& platform, PoolOf pool_of) {
  const Kernel& kernel = graph.kernel(k);
  if (!kernel.times.empty()) {
    std::uint32_t mask = 0;
    for (std::size_t i = 0; i < kernel.operand_count(); ++i)
      mask |= pool_of(i) == kSlow ? 1U << i : 0U;
    return kernel.times[mask];
  }
  double memory = 0;
  for (std::size_t i = 0; i < kernel.operand_count(); ++i) {
    const auto bytes = static_cast<double>(graph.tensor(kernel.operand(i)).bytes);
    memory += bytes / (i < kernel.inputs.size() ? platform.read_bandwidth(pool_of(i))
                                                : platform.write_bandwidth(pool_of(i)));
  }
  return std::max(kernel.flops / platform.peak_flops, memory);
}

}  // namespace

double kernel_time(const Graph& graph, std::uint32_t k, std::uint32_t slow_mask,
                   const Platform& platform) {
  return timed(graph, k, platform, [slow_mask](std::size_t i) {
    return i < 32 && ((slow_mask >> i) & 1U) != 0 ? kSlow : kFast;
  });
}

double kernel_time(const Graph& graph, std::uint32_t k, std::span<const Pool> where,
                   const Platform& platform) {
  const Kernel& kernel = graph.kernel(k);
  return timed(graph, k, platform, [&](std::size_t i) { return where[kernel.operand(i)]; });
}

}  // namespace sysgym::tensorplace
