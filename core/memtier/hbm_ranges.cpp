#include "memtier/hbm_ranges.hpp"

#include <algorithm>
#include <charconv>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/text_scan.hpp"

namespace sysgym::memtier {

HbmRanges::HbmRanges(const std::vector<AddressRange>& ranges) {
  for (const AddressRange& r : ranges)
    add(r);
}

void HbmRanges::add(AddressRange range) {
  if (range.lo >= range.hi) {
    throw ConfigError("HBM range " + format_hex(range.lo) + ":" + format_hex(range.hi) +
                      ": LO must be below HI (ranges are half-open [LO, HI))");
  }
  // Merge with every range it overlaps or touches.
  auto first = std::lower_bound(ranges_.begin(), ranges_.end(), range.lo,
                                [](const AddressRange& r, std::uint64_t lo) { return r.hi < lo; });
  auto last = first;
  while (last != ranges_.end() && last->lo <= range.hi) {
    range.lo = std::min(range.lo, last->lo);
    range.hi = std::max(range.hi, last->hi);
    ++last;
  }
  first = ranges_.erase(first, last);
  ranges_.insert(first, range);
}

bool HbmRanges::contains(std::uint64_t address) const {
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), address,
                             [](std::uint64_t a, const AddressRange& r) { return a < r.hi; });
  return it != ranges_.end() && it->lo <= address;
}

std::uint64_t HbmRanges::total_bytes() const {
  std::uint64_t total = 0;
  for (const AddressRange& r : ranges_)
    total += r.hi - r.lo;
  return total;
}

std::string HbmRanges::to_string() const {
  std::string out;
  for (const AddressRange& r : ranges_) {
    if (!out.empty()) out += ",";
    out += format_hex(r.lo) + ":" + format_hex(r.hi);
  }
  return out;
}

AddressRange parse_address_range(std::string_view text) {
  const std::string_view trimmed = trim(text);
  const std::size_t colon = trimmed.find(':');
  AddressRange range;
  if (colon == std::string_view::npos || !parse_hex(trim(trimmed.substr(0, colon)), range.lo) ||
      !parse_hex(trim(trimmed.substr(colon + 1)), range.hi)) {
    throw ConfigError(
        "HBM range " + quote(text) +
        " is not of the form LO:HI in hexadecimal (e.g. 0x7f0000000000:0x7f0000400000)");
  }
  if (range.lo >= range.hi) {
    throw ConfigError("HBM range " + quote(text) +
                      ": LO must be below HI (ranges are half-open [LO, HI))");
  }
  return range;
}

std::vector<AddressRange> parse_address_ranges(std::string_view text) {
  std::vector<AddressRange> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string_view part = trim(text.substr(start, comma - start));
    if (!part.empty()) out.push_back(parse_address_range(part));
    start = comma + 1;
  }
  return out;
}

}  // namespace sysgym::memtier
