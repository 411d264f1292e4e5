#include "tensorplace/allocator.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "tensorplace/graph.hpp"

namespace sysgym::tensorplace {
namespace {

std::uint64_t aligned(std::uint64_t bytes) {
  return (bytes + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment;
}

}  // namespace

std::uint64_t BestFitAllocator::allocate(std::uint64_t bytes) {
  bytes = aligned(bytes);
  live_ += bytes;
  const auto fit = free_by_size_.lower_bound({bytes, 0});  // smallest, then lowest address
  std::uint64_t offset = 0;
  if (fit == free_by_size_.end()) {
    offset = top_;
    top_ += bytes;
  } else {
    const std::uint64_t size = fit->first;
    offset = fit->second;
    remove_free(free_.find(offset));
    if (size > bytes) add_free(offset + bytes, size - bytes);
  }
  extent_ = std::max(extent_, offset + bytes);
  return offset;
}

void BestFitAllocator::release(std::uint64_t offset, std::uint64_t bytes) {
  bytes = aligned(bytes);
  if (bytes > live_) throw Error("BestFitAllocator: release of more than is allocated");
  live_ -= bytes;
  auto next = free_.lower_bound(offset);
  if (next != free_.end() && next->first == offset + bytes) {
    bytes += next->second;
    remove_free(next);
  }
  next = free_.lower_bound(offset);
  if (next != free_.begin()) {
    const auto before = std::prev(next);
    if (before->first + before->second == offset) {
      offset = before->first;
      bytes += before->second;
      remove_free(before);
    }
  }
  if (offset + bytes == top_) {
    top_ = offset;  // the top of the heap shrinks instead of keeping a free block there
    return;
  }
  add_free(offset, bytes);
}

void BestFitAllocator::add_free(std::uint64_t offset, std::uint64_t bytes) {
  free_[offset] = bytes;
  free_by_size_.emplace(bytes, offset);
}

void BestFitAllocator::remove_free(std::map<std::uint64_t, std::uint64_t>::iterator block) {
  free_by_size_.erase({block->second, block->first});
  free_.erase(block);
}

}  // namespace sysgym::tensorplace
