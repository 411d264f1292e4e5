// Application regions: the sampled pages merged into address ranges wherever two pages are
// closer than 2^interval_distance bytes (MemAI's interval_distance). The env's address bins
// cover these regions, so empty address space between heaps, stacks and libraries costs nothing.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace sysgym::memtier {

inline constexpr int kDefaultIntervalDistance = 22;  // 4 MiB

struct Region {
  std::uint64_t lo = 0;     // first page start
  std::uint64_t hi = 0;     // end of the last page (exclusive)
  std::uint64_t pages = 0;  // sampled pages inside
};

// `pages`: sorted unique page start addresses. Throws ConfigError for an interval distance
// outside [page_bits, 63].
std::vector<Region> detect_regions(std::span<const std::uint64_t> pages, int page_bits,
                                   int interval_distance = kDefaultIntervalDistance);

}  // namespace sysgym::memtier
