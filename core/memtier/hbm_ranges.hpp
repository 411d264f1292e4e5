// A set of address ranges placed in HBM: half-open [lo, hi), kept sorted, disjoint and merged.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/units.hpp"  // format_hex, for callers printing ranges

namespace sysgym::memtier {

struct AddressRange {
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;  // exclusive
  friend bool operator==(const AddressRange&, const AddressRange&) = default;
};

class HbmRanges {
 public:
  HbmRanges() = default;
  // Throws ConfigError when some range has lo >= hi.
  explicit HbmRanges(const std::vector<AddressRange>& ranges);

  // Throws ConfigError when lo >= hi.
  void add(AddressRange range);
  bool contains(std::uint64_t address) const;
  const std::vector<AddressRange>& ranges() const { return ranges_; }
  std::uint64_t total_bytes() const;
  bool empty() const { return ranges_.empty(); }
  std::string to_string() const;  // "0x1000:0x2000,0x8000:0x9000"

 private:
  std::vector<AddressRange> ranges_;
};

// "LO:HI" in hexadecimal, 0x prefix optional. Throws ConfigError naming the text.
AddressRange parse_address_range(std::string_view text);
// Comma-separated list of LO:HI.
std::vector<AddressRange> parse_address_ranges(std::string_view text);

}  // namespace sysgym::memtier
