// LSD radix sort of 64-bit words by their high `key_bits` bits (bits 32 and up), stable.
// Callers pack a key in the high half and a payload (an index) in the low half, so the scatter
// writes one stream instead of two. Used where std::sort's O(n log n) comparisons would
// dominate (page tables of million-sample traces).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sysgym {

// Precondition: key_bits <= 32. Digits are at most 16 bits (one pass for keys below 2^16).
inline void radix_sort_high_keys(std::vector<std::uint64_t>& words, int key_bits) {
  const std::size_t n = words.size();
  if (n < 2 || key_bits <= 0) return;
  const int passes = (key_bits + 15) / 16;
  const int digit = (key_bits + passes - 1) / passes;
  const std::size_t buckets = std::size_t{1} << digit;
  const std::uint64_t mask = buckets - 1;
  std::vector<std::uint64_t> buffer(n);
  std::vector<std::size_t> count(buckets);
  for (int shift = 32; shift < 32 + passes * digit; shift += digit) {
    std::fill(count.begin(), count.end(), 0);
    for (std::uint64_t w : words)
      ++count[(w >> shift) & mask];
    std::size_t sum = 0;
    for (auto& c : count) {
      const std::size_t bucket = c;
      c = sum;
      sum += bucket;
    }
    for (std::uint64_t w : words)
      buffer[count[(w >> shift) & mask]++] = w;
    words.swap(buffer);
  }
}

// Sorts (key, value) pairs by any 64-bit key, stable: the general case when keys do not fit in
// 32 bits after subtracting their minimum.
inline void radix_sort_pairs(std::vector<std::uint64_t>& keys, std::vector<std::uint32_t>& values) {
  const std::size_t n = keys.size();
  if (n < 2) return;
  const auto [low_it, high_it] = std::minmax_element(keys.begin(), keys.end());
  const std::uint64_t low = *low_it;
  const std::uint64_t span = *high_it - low;
  int bits = 0;
  while (bits < 64 && (span >> bits) != 0)
    ++bits;
  std::vector<std::uint64_t> key_buffer(n);
  std::vector<std::uint32_t> value_buffer(n);
  constexpr int kDigit = 11;
  std::vector<std::size_t> count(std::size_t{1} << kDigit);
  const std::uint64_t mask = count.size() - 1;
  for (int shift = 0; shift < bits; shift += kDigit) {
    std::fill(count.begin(), count.end(), 0);
    for (std::uint64_t k : keys)
      ++count[((k - low) >> shift) & mask];
    std::size_t sum = 0;
    for (auto& c : count) {
      const std::size_t bucket = c;
      c = sum;
      sum += bucket;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = count[((keys[i] - low) >> shift) & mask]++;
      key_buffer[at] = keys[i];
      value_buffer[at] = values[i];
    }
    keys.swap(key_buffer);
    values.swap(value_buffer);
  }
}

}  // namespace sysgym
