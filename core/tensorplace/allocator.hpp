// A best-fit heap of 4 KiB-aligned blocks, as AutoTM's allocator is modelled: where a tensor sits
// in a pool's address space, and how far fragmentation pushes the heap past the live bytes.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <utility>

namespace sysgym::tensorplace {

class BestFitAllocator {
 public:
  // The smallest free block that fits (its lowest address on ties), else the top of the heap.
  std::uint64_t allocate(std::uint64_t bytes);
  // Frees a block allocate() returned; neighbours merge.
  void release(std::uint64_t offset, std::uint64_t bytes);

  std::uint64_t live_bytes() const { return live_; }
  // The end of the highest block now allocated.
  std::uint64_t top() const { return top_; }
  // The highest end of any block so far: the pool size the placement really needs.
  std::uint64_t extent() const { return extent_; }

 private:
  void add_free(std::uint64_t offset, std::uint64_t bytes);
  void remove_free(std::map<std::uint64_t, std::uint64_t>::iterator block);

  std::map<std::uint64_t, std::uint64_t> free_;                     // offset -> bytes, merged
  std::set<std::pair<std::uint64_t, std::uint64_t>> free_by_size_;  // (bytes, offset)
  std::uint64_t top_ = 0;
  std::uint64_t live_ = 0;
  std::uint64_t extent_ = 0;
};

}  // namespace sysgym::tensorplace
