// LSD radix sort of (u64 key, u32 value) pairs by key, stable. Used where std::sort's
// O(n log n) comparisons would dominate (page tables of million-sample traces). Digits in
// which every key agrees are skipped, so 35-bit page numbers cost 2-4 passes.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace sysgym {

inline void radix_sort_pairs(std::vector<std::uint64_t>& keys, std::vector<std::uint32_t>& values) {
  constexpr int kBits = 11;
  constexpr std::size_t kBuckets = std::size_t{1} << kBits;
  const std::size_t n = keys.size();
  std::vector<std::uint64_t> key_buffer(n);
  std::vector<std::uint32_t> value_buffer(n);
  std::array<std::size_t, kBuckets> count{};
  for (int shift = 0; shift < 64; shift += kBits) {
    count.fill(0);
    for (std::uint64_t k : keys) ++count[(k >> shift) & (kBuckets - 1)];
    if (count[(keys.empty() ? 0 : keys[0] >> shift) & (kBuckets - 1)] == n) continue;
    std::size_t sum = 0;
    for (auto& c : count) {
      const std::size_t bucket = c;
      c = sum;
      sum += bucket;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = count[(keys[i] >> shift) & (kBuckets - 1)]++;
      key_buffer[at] = keys[i];
      value_buffer[at] = values[i];
    }
    keys.swap(key_buffer);
    values.swap(value_buffer);
  }
}

}  // namespace sysgym
