// The HBM of the memtier env: a resident set of disjoint page-aligned ranges that never exceeds
// the capacity, and a mask over the pair's sampled pages (1 = in HBM) for the estimator.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "memtier/hbm_ranges.hpp"
#include "memtier/prepared_pair.hpp"

namespace sysgym::memtier {

// Bytes of one placement change.
struct Migration {
  std::uint64_t promoted = 0;  // moved DDR -> HBM
  std::uint64_t demoted = 0;   // moved HBM -> DDR
  std::uint64_t refused = 0;   // requested, but over capacity
  std::uint64_t kept = 0;      // requested and already resident
  std::uint64_t moved() const { return promoted + demoted; }
};

class HbmMemory {
 public:
  // Precondition (checked by the env's config): capacity_bytes >= one page.
  HbmMemory(const PreparedPair& pair, std::uint64_t capacity_bytes);

  // Everything back to DDR, without accounting (episode start).
  void clear();
  // Makes the resident set the admitted part of `wanted`: ranges are rounded out to pages and
  // admitted in the given (priority) order until the capacity is full; a range that does not fit
  // is admitted up to the capacity from its low end. Whatever was resident and is not wanted is
  // demoted.
  Migration place(std::span<const AddressRange> wanted);

  const std::vector<AddressRange>& resident() const { return resident_; }  // ascending
  std::uint64_t used_bytes() const { return used_; }
  std::uint64_t capacity_bytes() const { return capacity_; }
  // One byte per sampled page id of the pair: 1 when the page is in HBM.
  const std::vector<std::uint8_t>& page_mask() const { return mask_; }
  bool page_in_hbm(std::uint32_t page_id) const { return mask_[page_id] != 0; }

 private:
  void set_mask(const AddressRange& range, std::uint8_t value);
  void admit_by_priority(Migration& m);

  const PreparedPair& pair_;
  std::uint64_t capacity_;
  std::uint64_t used_ = 0;
  std::vector<AddressRange> resident_;
  std::vector<AddressRange> target_;  // reused between calls
  std::vector<std::uint8_t> mask_;
};

// Appends to `out` the parts of sorted, disjoint `a` not covered by sorted, disjoint `b`.
void subtract_ranges(std::span<const AddressRange> a, std::span<const AddressRange> b,
                     std::vector<AddressRange>& out);

// Bytes in both sorted, disjoint range lists.
std::uint64_t overlap_bytes(std::span<const AddressRange> a, std::span<const AddressRange> b);

}  // namespace sysgym::memtier
