// The project's one random number generator: xoshiro256** seeded through splitmix64.
// Only integer operations and an exact int->double conversion are used, so every compiler and
// both builds (native, wasm) produce the same stream for the same seed. Never use <random>
// distributions or rand() in sysgym: their output is implementation-defined.
#pragma once

#include <array>
#include <cstdint>

namespace sysgym {

// One step of splitmix64; also used to derive independent seeds (seed of sub-env i, ...).
constexpr std::uint64_t splitmix64(std::uint64_t& state) {
  state += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A seed for stream `index` derived from `seed`, decorrelated from neighbouring indices.
constexpr std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t state = seed ^ (0xD1B54A32D192ED03ull * (index + 1));
  splitmix64(state);
  return splitmix64(state);
}

class Rng {
 public:
  explicit constexpr Rng(std::uint64_t seed = 0) { reseed(seed); }

  constexpr void reseed(std::uint64_t seed) {
    std::uint64_t state = seed;
    for (auto& word : s_)
      word = splitmix64(state);
  }

  constexpr std::uint64_t next_u64() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform integer in [0, n), unbiased (rejection). Precondition: n > 0.
  constexpr std::uint64_t below(std::uint64_t n) {
    const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
    for (;;) {
      const std::uint64_t r = next_u64();
      if (r >= threshold) return r % n;
    }
  }

  // Uniform double in [0, 1) with 53 random bits.
  constexpr double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // The generator's state, for checkpoints that resume a run where it stopped.
  constexpr std::array<std::uint64_t, 4> state() const { return {s_[0], s_[1], s_[2], s_[3]}; }
  constexpr void set_state(const std::array<std::uint64_t, 4>& s) {
    for (std::size_t i = 0; i < 4; ++i)
      s_[i] = s[i];
  }

  // True with probability numerator / denominator, using integers only.
  constexpr bool chance(std::uint64_t numerator, std::uint64_t denominator) {
    return below(denominator) < numerator;
  }

 private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4]{};
};

}  // namespace sysgym
