// The bounds looptune holds every input to (named in its errors and in docs/envs/looptune.md).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sysgym::looptune {

inline constexpr std::size_t kMaxVars = 8;               // index variables of a problem
inline constexpr std::int64_t kMaxVarSize = 1 << 16;     // a variable's range
inline constexpr std::int64_t kMaxElements = 1LL << 26;  // a tensor: 256 MiB of floats
inline constexpr std::size_t kMaxLoopsLimit = 32;        // loops in a nest (env: max_loops)
inline constexpr std::size_t kDefaultMaxLoops = 10;      // LoopTune's
// One run of a nest that is to be measured, as the cost model estimates the untuned nest: 10
// minutes (matmul:4096^3 is about 6 here, 8192^3 about 47). Model-only tuning has no such bound.
inline constexpr double kMaxMeasuredRunSeconds = 600;
// The SIMD width every build tunes for: 4 floats, WebAssembly's 128 bits, so that a schedule
// legal in one build is legal in all (LoopTune: the innermost loop is 1 or a multiple of it).
inline constexpr std::int64_t kSimdWidth = 4;

}  // namespace sysgym::looptune
