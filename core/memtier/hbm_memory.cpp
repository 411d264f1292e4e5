#include "memtier/hbm_memory.hpp"

#include <algorithm>
#include <iterator>
#include <map>

#include "base/error.hpp"
#include "base/gallop.hpp"

namespace sysgym::memtier {
namespace {

// Sorts by start and merges overlapping or touching ranges, in place.
void normalize(std::vector<AddressRange>& ranges) {
  const auto by_start = [](const AddressRange& a, const AddressRange& b) { return a.lo < b.lo; };
  // Policies usually hand over ranges in address order: checking is linear, sorting is not.
  if (!std::is_sorted(ranges.begin(), ranges.end(), by_start))
    std::sort(ranges.begin(), ranges.end(), by_start);
  std::size_t out = 0;
  for (const AddressRange& r : ranges) {
    if (out > 0 && r.lo <= ranges[out - 1].hi) {
      ranges[out - 1].hi = std::max(ranges[out - 1].hi, r.hi);
    } else {
      ranges[out++] = r;
    }
  }
  ranges.resize(out);
}

// Calls f(range) for each maximal part of `a` not covered by sorted, disjoint `b`.
template <typename F>
void for_each_difference(std::span<const AddressRange> a, std::span<const AddressRange> b, F&& f) {
  std::size_t j = 0;
  for (AddressRange r : a) {
    while (j < b.size() && b[j].hi <= r.lo)
      ++j;
    std::size_t k = j;
    while (r.lo < r.hi) {
      if (k == b.size() || b[k].lo >= r.hi) {
        f(r);
        break;
      }
      if (b[k].lo > r.lo) f(AddressRange{r.lo, b[k].lo});
      r.lo = std::max(r.lo, b[k].hi);
      ++k;
    }
  }
}

}  // namespace

void subtract_ranges(std::span<const AddressRange> a, std::span<const AddressRange> b,
                     std::vector<AddressRange>& out) {
  for_each_difference(a, b, [&](const AddressRange& d) { out.push_back(d); });
}

std::uint64_t overlap_bytes(std::span<const AddressRange> a, std::span<const AddressRange> b) {
  std::uint64_t total = 0;
  std::size_t i = 0;
  std::size_t j = 0;
  // Without branches in the body: which list advances follows the agent's placements, which a
  // predictor cannot learn.
  while (i < a.size() && j < b.size()) {
    const std::uint64_t lo = std::max(a[i].lo, b[j].lo);
    const std::uint64_t hi = std::min(a[i].hi, b[j].hi);
    total += lo < hi ? hi - lo : 0;
    const std::size_t advance_a = a[i].hi < b[j].hi ? 1 : 0;
    i += advance_a;
    j += 1 - advance_a;
  }
  return total;
}

HbmMemory::HbmMemory(const PreparedPair& pair, std::uint64_t capacity_bytes)
    : pair_(pair), capacity_(capacity_bytes) {}

void HbmMemory::clear() {
  resident_.clear();
  resident_ids_.clear();
  used_ = 0;
}

void HbmMemory::set_capacity(std::uint64_t capacity_bytes) {
  if (used_ != 0) throw ApiMisuseError("HbmMemory::set_capacity on a memory that holds pages");
  capacity_ = capacity_bytes;
}

bool HbmMemory::page_in_hbm(std::uint32_t page_id) const {
  const auto it = std::upper_bound(resident_ids_.begin(), resident_ids_.end(), page_id,
                                   [](std::uint32_t id, const auto& r) { return id < r.second; });
  return it != resident_ids_.end() && it->first <= page_id;
}

Migration HbmMemory::place(std::span<const AddressRange> wanted) {
  const std::uint64_t page = pair_.page_bytes();
  Migration m;
  target_.clear();
  std::uint64_t requested = 0;
  for (const AddressRange& request : wanted) {
    const AddressRange r{request.lo / page * page, (request.hi + page - 1) / page * page};
    if (r.lo >= r.hi) continue;
    target_.push_back(r);
    requested += r.hi - r.lo;
  }
  if (requested > capacity_) admit_by_priority(m);
  normalize(target_);
  std::uint64_t target_bytes = 0;
  for (const AddressRange& r : target_)
    target_bytes += r.hi - r.lo;
  m.kept = overlap_bytes(target_, resident_);
  m.promoted = target_bytes - m.kept;
  m.demoted = used_ - m.kept;
  if (target_ == resident_) return m;  // unchanged: the id intervals still hold
  resident_.swap(target_);
  used_ = target_bytes;
  resident_ids_.clear();
  const auto& pages = pair_.pages;
  auto cursor = pages.begin();
  for (const AddressRange& r : resident_) {
    const auto a = gallop_lower_bound(cursor, pages.end(), r.lo);
    cursor = gallop_lower_bound(a, pages.end(), r.hi);
    if (a < cursor) {
      resident_ids_.emplace_back(static_cast<std::uint32_t>(a - pages.begin()),
                                 static_cast<std::uint32_t>(cursor - pages.begin()));
    }
  }
  return m;
}

Migration HbmMemory::replace(std::vector<AddressRange>& ranges,
                             std::vector<std::pair<std::uint32_t, std::uint32_t>>& ids,
                             std::uint64_t refused) {
  Migration m;
  m.refused = refused;
  std::uint64_t bytes = 0;
  for (const AddressRange& r : ranges)
    bytes += r.hi - r.lo;
  m.kept = overlap_bytes(ranges, resident_);
  m.promoted = bytes - m.kept;
  m.demoted = used_ - m.kept;
  used_ = bytes;
  resident_.swap(ranges);
  resident_ids_.swap(ids);
  return m;
}

// The requests in target_ exceed the capacity: admit them in order, each only for the parts
// not admitted before, the last one partially from its low end; the rest is refused.
void HbmMemory::admit_by_priority(Migration& m) {
  std::uint64_t free = capacity_;
  std::map<std::uint64_t, std::uint64_t> admitted;  // lo -> hi, disjoint
  std::vector<AddressRange> parts;
  for (const AddressRange& r : target_) {
    parts.clear();
    std::uint64_t lo = r.lo;
    auto it = admitted.upper_bound(lo);
    if (it != admitted.begin() && std::prev(it)->second > lo) lo = std::prev(it)->second;
    for (; lo < r.hi; ++it) {
      const std::uint64_t next = it == admitted.end() ? r.hi : std::min(it->first, r.hi);
      if (lo < next) parts.push_back({lo, next});
      if (it == admitted.end()) break;
      lo = std::max(lo, it->second);
    }
    for (const AddressRange& d : parts) {
      const std::uint64_t take = std::min(d.hi - d.lo, free);
      if (take > 0) admitted.emplace(d.lo, d.lo + take);
      free -= take;
      m.refused += (d.hi - d.lo) - take;
    }
  }
  target_.clear();
  for (const auto& [lo, hi] : admitted)
    target_.push_back({lo, hi});
}

}  // namespace sysgym::memtier
