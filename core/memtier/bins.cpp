#include "memtier/bins.hpp"

#include <algorithm>

#include "base/error.hpp"

namespace sysgym::memtier {

BinLayout::BinLayout(const PreparedPair& pair, std::size_t count, int interval_distance,
                     const std::string& context) {
  const int page_bits = pair.options.page_size_bits;
  const std::uint64_t page = pair.page_bytes();
  regions_ = detect_regions(pair.pages.span(), page_bits, std::max(interval_distance, page_bits));
  std::uint64_t total_pages = 0;
  for (const Region& r : regions_)
    total_pages += (r.hi - r.lo) / page;
  footprint_bytes_ = total_pages * page;
  if (count == 0 || count > total_pages) {
    throw ConfigError(context + ": 'bins' is " + std::to_string(count) +
                      " but the trace's regions hold " + std::to_string(total_pages) +
                      " pages; use between 1 and " + std::to_string(total_pages) + " bins");
  }
  // Bin i holds region-space pages [start(i), start(i + 1)).
  auto start = [&](std::uint64_t i) { return i * total_pages / count; };
  bins_.resize(count);
  std::size_t region = 0;
  std::uint64_t region_offset = 0;  // region-space page where `region` begins
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t from = start(i);
    const std::uint64_t to = start(i + 1);
    while (from < to) {
      const Region& r = regions_[region];
      const std::uint64_t region_pages = (r.hi - r.lo) / page;
      const std::uint64_t end = std::min(to, region_offset + region_pages);
      const std::uint64_t lo = r.lo + (from - region_offset) * page;
      bins_[i].ranges.push_back({lo, lo + (end - from) * page});
      bins_[i].bytes += (end - from) * page;
      from = end;
      if (end == region_offset + region_pages) {
        region_offset += region_pages;
        ++region;
      }
    }
  }
  for (Bin& bin : bins_) {
    for (const AddressRange& r : bin.ranges) {
      const auto a =
          std::lower_bound(pair.pages.begin(), pair.pages.end(), r.lo) - pair.pages.begin();
      const auto b =
          std::lower_bound(pair.pages.begin() + a, pair.pages.end(), r.hi) - pair.pages.begin();
      bin.ids.emplace_back(static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(b));
    }
  }
  first_page_.reserve(bins_.size() + 1);
  for (const Bin& bin : bins_)
    first_page_.push_back(bin.ids.front().first);
  first_page_.push_back(static_cast<std::uint32_t>(pair.pages.size()));
}

WindowBinRuns::WindowBinRuns(const PreparedPair& pair, const BinLayout& layout) {
  const std::size_t windows = pair.window_count();
  offset.reserve(windows + 1);
  offset.push_back(0);
  for (std::size_t w = 0; w < windows; ++w) {
    std::size_t b = 0;
    for (std::uint64_t e = pair.entry_offset[w]; e < pair.entry_offset[w + 1]; ++e) {
      const std::uint32_t id = pair.entry_page[e];
      const bool first_of_run = e == pair.entry_offset[w] || id >= layout.first_page(b + 1);
      while (id >= layout.first_page(b + 1))
        ++b;
      if (first_of_run) {
        if (bin.size() > offset.back()) end.push_back(e);
        bin.push_back(static_cast<std::uint32_t>(b));
      }
    }
    if (bin.size() > offset.back()) end.push_back(pair.entry_offset[w + 1]);
    offset.push_back(bin.size());
  }
}

}  // namespace sysgym::memtier
