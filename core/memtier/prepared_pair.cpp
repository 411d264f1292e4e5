#include "memtier/prepared_pair.hpp"

#include <algorithm>
#include <limits>

#include "base/error.hpp"
#include "base/radix_sort.hpp"

namespace sysgym::memtier {
namespace {

constexpr std::size_t kProgressEvery = 4096;

// Page id of every DDR sample, and the sorted page start addresses.
std::vector<std::uint32_t> number_pages(const Trace& ddr, int page_bits,
                                        std::vector<std::uint64_t>& pages) {
  const std::size_t n = ddr.size();
  if (n > std::numeric_limits<std::uint32_t>::max()) {
    throw TraceFormatError(ddr.source + ": more than 2^32 samples are not supported");
  }
  std::vector<std::uint64_t> keys(n);
  std::vector<std::uint32_t> order(n);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = ddr.vaddr[i] >> page_bits;
    order[i] = static_cast<std::uint32_t>(i);
  }
  radix_sort_pairs(keys, order);
  std::vector<std::uint32_t> page_of(n);
  pages.clear();
  for (std::size_t k = 0; k < n; ++k) {
    if (k == 0 || keys[k] != keys[k - 1]) pages.push_back(keys[k] << page_bits);
    page_of[order[k]] = static_cast<std::uint32_t>(pages.size() - 1);
  }
  return page_of;
}

}  // namespace

void PreparedPair::finalize(const std::string& source) {
  auto fail = [&](const std::string& problem) { throw TraceFormatError(source + ": " + problem); };
  const std::size_t w = ddr_ticks.size();
  if (hbm_ticks.size() != w || phase.size() != w || flags.size() != w || entry_offset.size() != w + 1) {
    fail("window columns have different lengths");
  }
  if (w == 0) fail("the pair has no windows");
  if (entry_page.size() != entry_count.size()) fail("entry columns have different lengths");
  if (!(ticks_per_ms > 0.0)) fail("ticks_per_ms must be positive");
  if (options.page_size_bits < kMinPageSizeBits || options.page_size_bits > kMaxPageSizeBits) {
    fail("page size out of range");
  }
  const std::uint64_t mask = (std::uint64_t{1} << options.page_size_bits) - 1;
  for (std::size_t p = 0; p < pages.size(); ++p) {
    if ((pages[p] & mask) != 0 || (p > 0 && pages[p] <= pages[p - 1])) {
      fail("page table is not sorted, unique and page-aligned at page " + std::to_string(p));
    }
  }
  if (entry_offset.front() != 0 || entry_offset.back() != entry_page.size()) {
    fail("entry offsets do not cover the entries");
  }
  count_prefix.assign(entry_count.size() + 1, 0);
  ddr_total_ticks = 0;
  hbm_total_ticks = 0;
  for (std::size_t i = 0; i < w; ++i) {
    if (entry_offset[i + 1] < entry_offset[i]) fail("entry offsets decrease at window " + std::to_string(i));
    for (std::uint64_t e = entry_offset[i]; e < entry_offset[i + 1]; ++e) {
      if (entry_page[e] >= pages.size() || entry_count[e] == 0 ||
          (e > entry_offset[i] && entry_page[e] <= entry_page[e - 1])) {
        fail("bad page entry " + std::to_string(e) + " in window " + std::to_string(i));
      }
      count_prefix[e + 1] = count_prefix[e] + entry_count[e];
    }
    if ((flags[i] & kGapWindow) != 0 && entry_offset[i + 1] != entry_offset[i]) {
      fail("gap window " + std::to_string(i) + " has samples");
    }
    ddr_total_ticks += ddr_ticks[i];
    hbm_total_ticks += hbm_ticks[i];
  }
}

PreparedPair prepare_pair(const TracePair& pair, const WindowOptions& options,
                          const ProgressFn& progress) {
  const WindowSet set = make_windows(pair, options);
  PreparedPair out;
  out.options = options;
  out.options.window_len = set.window_len;
  if (options.mode == WindowMode::kAligned) out.options.unit = WindowUnit::kInstrs;
  out.ddr_source = pair.ddr.source;
  out.hbm_source = pair.hbm.source;
  out.time_base = pair.ddr.time_base;
  out.ticks_per_ms = set.ticks_per_ms;
  out.ddr_samples = pair.ddr.size();
  out.hbm_samples = pair.hbm.size();

  const std::vector<std::uint32_t> page_of =
      number_pages(pair.ddr, options.page_size_bits, out.pages);
  std::vector<std::uint32_t> counter(out.pages.size(), 0);
  std::vector<std::uint32_t> touched;
  const std::size_t w = set.windows.size();
  out.ddr_ticks.reserve(w);
  out.hbm_ticks.reserve(w);
  out.phase.reserve(w);
  out.flags.reserve(w);
  out.entry_offset.reserve(w + 1);
  out.entry_offset.push_back(0);
  for (std::size_t i = 0; i < w; ++i) {
    const Window& window = set.windows[i];
    out.ddr_ticks.push_back(window.ddr_ticks);
    out.hbm_ticks.push_back(window.hbm_ticks);
    out.phase.push_back(window.phase);
    out.flags.push_back(window.gap ? kGapWindow : 0);
    touched.clear();
    for (std::uint64_t s = window.ddr_begin; s < window.ddr_end; ++s) {
      if (counter[page_of[s]]++ == 0) touched.push_back(page_of[s]);
    }
    std::sort(touched.begin(), touched.end());
    for (std::uint32_t page : touched) {
      out.entry_page.push_back(page);
      out.entry_count.push_back(counter[page]);
      counter[page] = 0;
    }
    out.entry_offset.push_back(out.entry_page.size());
    if (progress && i % kProgressEvery == 0) progress(i, w);
  }
  if (progress) progress(w, w);
  out.finalize("prepared pair");
  return out;
}

}  // namespace sysgym::memtier
