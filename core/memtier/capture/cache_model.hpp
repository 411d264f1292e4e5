// A set-associative last-level cache with LRU replacement: which data accesses of a traced
// program would reach memory. Defaults model a 1 MiB, 16-way LLC slice with 64-byte lines.
#pragma once

#include <cstdint>
#include <vector>

namespace sysgym::capture {

struct CacheConfig {
  std::uint64_t size_bytes = 1 << 20;
  std::uint32_t ways = 16;
  std::uint32_t line_bytes = 64;
};

class CacheModel {
 public:
  // Throws ConfigError unless line and set counts are powers of two and size = sets x ways x line.
  explicit CacheModel(const CacheConfig& config);

  // True on a hit; on a miss the line is filled, evicting the set's least recently used line.
  bool access(std::uint64_t address);
  std::uint64_t hits() const { return hits_; }
  std::uint64_t misses() const { return misses_; }
  std::uint32_t line_bytes() const { return line_bytes_; }

 private:
  std::uint32_t ways_;
  std::uint32_t line_bytes_;
  int line_bits_;
  std::uint64_t set_mask_;
  std::vector<std::uint64_t> tags_;  // sets x ways, most recently used first; 0 = empty
  std::uint64_t hits_ = 0;
  std::uint64_t misses_ = 0;
};

}  // namespace sysgym::capture
