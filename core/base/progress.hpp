// Long-running core functions report progress through this callback; core never draws anything.
// `done` and `total` are in the same unit (bytes, samples, windows), total > 0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

namespace sysgym {

using ProgressFn = std::function<void(std::uint64_t done, std::uint64_t total)>;

// Readers of record-per-line files report once per this many records: often enough for a bar,
// rarely enough to cost nothing.
inline constexpr std::size_t kProgressEveryRecords = 1 << 16;

}  // namespace sysgym
