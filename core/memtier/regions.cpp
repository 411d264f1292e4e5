#include "memtier/regions.hpp"

#include <string>

#include "base/error.hpp"

namespace sysgym::memtier {

std::vector<Region> detect_regions(std::span<const std::uint64_t> pages, int page_bits,
                                   int interval_distance) {
  if (interval_distance < page_bits || interval_distance > 63) {
    throw ConfigError("interval distance " + std::to_string(interval_distance) +
                      " must lie in [page size bits (" + std::to_string(page_bits) + "), 63]");
  }
  const std::uint64_t page_bytes = std::uint64_t{1} << page_bits;
  const std::uint64_t distance = std::uint64_t{1} << interval_distance;
  std::vector<Region> regions;
  for (std::uint64_t page : pages) {
    if (!regions.empty() && page - regions.back().hi < distance) {
      regions.back().hi = page + page_bytes;
      ++regions.back().pages;
    } else {
      regions.push_back({page, page + page_bytes, 1});
    }
  }
  return regions;
}

}  // namespace sysgym::memtier
