// Long-running core functions report progress through this callback; core never draws anything.
// `done` and `total` are in the same unit (bytes, samples, windows), total > 0.
#pragma once

#include <cstdint>
#include <functional>

namespace sysgym {

using ProgressFn = std::function<void(std::uint64_t done, std::uint64_t total)>;

}  // namespace sysgym
