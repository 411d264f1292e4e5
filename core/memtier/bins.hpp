// Address bins: the env's unit of observation and action. The application's regions (sampled
// pages merged within 2^interval_distance bytes) are laid end to end and cut into `count` bins
// of equal page counts; a bin is one or more page-aligned address ranges (several when it spans
// a gap between regions), so no bin wastes its share on address space the program never used.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "memtier/hbm_ranges.hpp"
#include "memtier/prepared_pair.hpp"
#include "memtier/regions.hpp"

namespace sysgym::memtier {

using IdInterval = std::pair<std::uint32_t, std::uint32_t>;  // [first, last) sampled page ids

struct Bin {
  std::vector<AddressRange> ranges;  // ascending, disjoint
  std::vector<IdInterval> ids;       // the sampled pages inside each range
  std::uint64_t bytes = 0;
};

class BinLayout {
 public:
  // Throws ConfigError (naming `context`'s key 'bins') when there are more bins than pages.
  BinLayout(const PreparedPair& pair, std::size_t count, int interval_distance,
            const std::string& context);

  std::size_t size() const { return bins_.size(); }
  const Bin& bin(std::size_t i) const { return bins_[i]; }
  const std::vector<Bin>& bins() const { return bins_; }
  // Bins follow addresses, so the sampled pages (indices into pair.pages) of bin i are
  // [first_page(i), first_page(i + 1)): a walk over pages in address order finds their bins
  // without a lookup per page.
  std::uint32_t first_page(std::size_t bin) const { return first_page_[bin]; }
  const std::vector<Region>& regions() const { return regions_; }
  std::uint64_t footprint_bytes() const { return footprint_bytes_; }

 private:
  std::vector<Region> regions_;
  std::vector<Bin> bins_;
  std::vector<std::uint32_t> first_page_;  // size() + 1 entries, non-decreasing
  std::uint64_t footprint_bytes_ = 0;
};

// Each window's entries (sorted by page id) cut where the bin changes: a window's histogram is
// then one subtraction of prefix counts per run instead of a bin search and a store per entry,
// and a bin's HBM samples are a count over one contiguous run.
struct WindowBinRuns {
  WindowBinRuns(const PreparedPair& pair, const BinLayout& layout);
  std::vector<std::uint64_t> offset;  // window w's runs are [offset[w], offset[w + 1])
  std::vector<std::uint32_t> bin;     // per run
  std::vector<std::uint64_t> end;     // per run: one past its last entry
};

}  // namespace sysgym::memtier
