#include "memtier/capture/cache_model.hpp"

#include <algorithm>
#include <string>

#include "base/error.hpp"

namespace sysgym::capture {
namespace {
bool power_of_two(std::uint64_t x) {
  return x != 0 && (x & (x - 1)) == 0;
}
}  // namespace

CacheModel::CacheModel(const CacheConfig& config)
    : ways_(config.ways), line_bytes_(config.line_bytes) {
  if (!power_of_two(config.line_bytes) || config.ways == 0 ||
      config.size_bytes % (static_cast<std::uint64_t>(config.ways) * config.line_bytes) != 0 ||
      !power_of_two(config.size_bytes /
                    (static_cast<std::uint64_t>(config.ways) * config.line_bytes))) {
    throw ConfigError("cache model: size " + std::to_string(config.size_bytes) + " B, " +
                      std::to_string(config.ways) + " ways, " + std::to_string(config.line_bytes) +
                      " B lines: the line size and the number of sets (size / ways / line) must be "
                      "powers of two");
  }
  line_bits_ = 0;
  while ((1u << line_bits_) < config.line_bytes)
    ++line_bits_;
  const std::uint64_t sets =
      config.size_bytes / (static_cast<std::uint64_t>(config.ways) * config.line_bytes);
  set_mask_ = sets - 1;
  tags_.assign(sets * ways_, 0);
}

bool CacheModel::access(std::uint64_t address) {
  const std::uint64_t line = address >> line_bits_;
  const std::uint64_t tag = line + 1;  // 0 marks an empty way
  std::uint64_t* set = tags_.data() + (line & set_mask_) * ways_;
  std::uint64_t* end = set + ways_;
  std::uint64_t* found = std::find(set, end, tag);
  const bool hit = found != end;
  if (!hit) found = end - 1;  // evict the least recently used
  std::copy_backward(set, found, found + 1);
  set[0] = tag;
  ++(hit ? hits_ : misses_);
  return hit;
}

}  // namespace sysgym::capture
