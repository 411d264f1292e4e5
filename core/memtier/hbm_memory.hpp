// The HBM of the memtier env: a resident set of disjoint page-aligned ranges that never exceeds
// the capacity, and the same set as intervals of the pair's sampled page ids, so a window's
// samples in HBM are counted by one merge with its (id-sorted) entries. A placement costs
// O(ranges x log pages), independent of how many bytes it moves.
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
  // A new capacity (whole pages, at least one) for an empty memory: call after clear().
  void set_capacity(std::uint64_t capacity_bytes);
  // Makes the resident set the admitted part of `wanted`: ranges are rounded out to pages and
  // admitted in the given (priority) order until the capacity is full; a range that does not fit
  // is admitted up to the capacity from its low end. Whatever was resident and is not wanted is
  // demoted.
  Migration place(std::span<const AddressRange> wanted);

  // For callers that admitted by themselves (the env's bins): `ranges` sorted, disjoint, within
  // capacity, `ids` their sampled page-id intervals, `refused` the bytes they turned away.
  Migration replace(std::vector<AddressRange>& ranges,
                    std::vector<std::pair<std::uint32_t, std::uint32_t>>& ids,
                    std::uint64_t refused);

  const std::vector<AddressRange>& resident() const { return resident_; }  // ascending
  std::uint64_t used_bytes() const { return used_; }
  std::uint64_t capacity_bytes() const { return capacity_; }
  // The resident set as sorted, disjoint [first, last) intervals of sampled page ids.
  const std::vector<std::pair<std::uint32_t, std::uint32_t>>& resident_ids() const {
    return resident_ids_;
  }
  bool page_in_hbm(std::uint32_t page_id) const;

 private:
  void admit_by_priority(Migration& m);

  const PreparedPair& pair_;
  std::uint64_t capacity_;
  std::uint64_t used_ = 0;
  std::vector<AddressRange> resident_;
  std::vector<AddressRange> target_;  // reused between calls
  std::vector<std::pair<std::uint32_t, std::uint32_t>> resident_ids_;
};

// Appends to `out` the parts of sorted, disjoint `a` not covered by sorted, disjoint `b`.
void subtract_ranges(std::span<const AddressRange> a, std::span<const AddressRange> b,
                     std::vector<AddressRange>& out);

// Bytes in both sorted, disjoint range lists.
std::uint64_t overlap_bytes(std::span<const AddressRange> a, std::span<const AddressRange> b);

}  // namespace sysgym::memtier
