#include "memtier/prepared_pair.hpp"

#include <cmath>

#include <algorithm>
#include <limits>

#include "base/error.hpp"
#include "base/radix_sort.hpp"
#include "profiling/profiler.hpp"

namespace sysgym::memtier {
namespace {

// Every (sample, window) membership as (page number, window), sorted by page. Memberships are
// emitted window by window and the sort is stable, so within a page the windows ascend. A memai
// boundary sample belongs to several windows and appears once for each.
struct Memberships {
  std::vector<std::uint64_t> page_keys;
  std::vector<std::uint32_t> window;
};

Memberships sort_memberships(const WindowSet& set, const Trace& ddr, int page_bits) {
  std::size_t total = 0;
  for (const Window& w : set.windows)
    total += w.ddr_end - w.ddr_begin;
  if (total > std::numeric_limits<std::uint32_t>::max() ||
      set.windows.size() > std::numeric_limits<std::uint32_t>::max()) {
    throw TraceFormatError(ddr.source + ": more than 2^32 samples are not supported");
  }
  const auto [low_it, high_it] = std::minmax_element(ddr.vaddr.begin(), ddr.vaddr.end());
  const std::uint64_t low = *low_it >> page_bits;
  const std::uint64_t span = (*high_it >> page_bits) - low;
  int bits = 0;
  while (bits < 64 && (span >> bits) != 0)
    ++bits;
  Memberships m;
  m.page_keys.reserve(total);
  m.window.reserve(total);
  if (bits <= 32) {
    // Common case: (page - low, window) packed in one word, one scatter stream per pass.
    std::vector<std::uint64_t> packed;
    packed.reserve(total);
    for (std::size_t i = 0; i < set.windows.size(); ++i) {
      const Window& w = set.windows[i];
      for (std::uint64_t s = w.ddr_begin; s < w.ddr_end; ++s) {
        packed.push_back((((ddr.vaddr[s] >> page_bits) - low) << 32) | i);
      }
    }
    radix_sort_high_keys(packed, bits);
    for (std::uint64_t word : packed) {
      m.page_keys.push_back((word >> 32) + low);
      m.window.push_back(static_cast<std::uint32_t>(word));
    }
    return m;
  }
  for (std::size_t i = 0; i < set.windows.size(); ++i) {
    const Window& w = set.windows[i];
    for (std::uint64_t s = w.ddr_begin; s < w.ddr_end; ++s) {
      m.page_keys.push_back(ddr.vaddr[s] >> page_bits);
      m.window.push_back(static_cast<std::uint32_t>(i));
    }
  }
  radix_sort_pairs(m.page_keys, m.window);
  return m;
}

// Fills the page table and, per window, its (page id, count) entries in increasing page id:
// walking the memberships in page order appends to each window's list in page order already.
void count_pages(const WindowSet& set, const Memberships& m, int page_bits, PreparedPair& out) {
  const std::size_t w = set.windows.size();
  std::vector<std::uint64_t> slot(w + 1, 0);
  for (std::size_t i = 0; i < w; ++i) {
    slot[i + 1] = slot[i] + (set.windows[i].ddr_end - set.windows[i].ddr_begin);
  }
  std::vector<std::uint32_t> page_ids(slot[w]);
  std::vector<std::uint64_t> fill(slot.begin(), slot.end() - 1);
  std::vector<std::uint64_t> pages;
  for (std::size_t k = 0; k < m.page_keys.size(); ++k) {
    if (k == 0 || m.page_keys[k] != m.page_keys[k - 1])
      pages.push_back(m.page_keys[k] << page_bits);
    page_ids[fill[m.window[k]]++] = static_cast<std::uint32_t>(pages.size() - 1);
  }
  std::vector<std::uint32_t> entry_page;
  std::vector<std::uint32_t> count_prefix = {0};
  entry_page.reserve(page_ids.size());
  count_prefix.reserve(page_ids.size() + 1);
  out.entry_offset.assign(1, 0);
  for (std::size_t i = 0; i < w; ++i) {
    for (std::uint64_t k = slot[i]; k < slot[i + 1]; ++k) {
      if (k == slot[i] || page_ids[k] != page_ids[k - 1]) {
        entry_page.push_back(page_ids[k]);
        count_prefix.push_back(count_prefix.back());
      }
      ++count_prefix.back();
    }
    out.entry_offset.push_back(entry_page.size());
  }
  out.pages = std::move(pages);
  out.entry_page = std::move(entry_page);
  out.count_prefix = std::move(count_prefix);
}

}  // namespace

void PreparedPair::finalize(const std::string& source) {
  auto fail = [&](const std::string& problem) { throw TraceFormatError(source + ": " + problem); };
  const std::size_t w = ddr_ticks.size();
  if (hbm_ticks.size() != w || phase.size() != w || flags.size() != w ||
      entry_offset.size() != w + 1) {
    fail("window columns have different lengths");
  }
  if (w == 0) fail("the pair has no windows");
  if (count_prefix.size() != entry_page.size() + 1) fail("entry columns have different lengths");
  if (!(ticks_per_ms > 0.0) || !std::isfinite(ticks_per_ms)) fail("ticks_per_ms must be positive");
  if (options.page_size_bits < kMinPageSizeBits || options.page_size_bits > kMaxPageSizeBits) {
    fail("page size out of range");
  }
  const std::uint64_t mask = (std::uint64_t{1} << options.page_size_bits) - 1;
  for (std::size_t p = 0; p < pages.size(); ++p) {
    if ((pages[p] & mask) != 0 || (p > 0 && pages[p] <= pages[p - 1])) {
      fail("page table is not sorted, unique and page-aligned at page " + std::to_string(p));
    }
  }
  if (entry_offset.front() != 0 || entry_offset.back() != entry_page.size() ||
      count_prefix[0] != 0) {
    fail("entry offsets do not cover the entries");
  }
  ddr_total_ticks = 0;
  hbm_total_ticks = 0;
  const std::uint32_t* ids = entry_page.data();
  const std::uint32_t* prefix = count_prefix.data();
  const std::size_t page_count = pages.size();
  for (std::size_t i = 0; i < w; ++i) {
    const std::uint64_t first = entry_offset[i];
    const std::uint64_t last = entry_offset[i + 1];
    if (last < first) fail("entry offsets decrease at window " + std::to_string(i));
    // Checked before the loop: an offset past the end (with a valid last offset after it) would
    // otherwise walk up to 2^64 entries (found by fuzzing).
    if (last > entry_page.size()) {
      fail("entry offset " + std::to_string(last) + " of window " + std::to_string(i) +
           " is past the " + std::to_string(entry_page.size()) + " entries");
    }
    for (std::uint64_t e = first; e < last; ++e) {
      // Page ids strictly increase inside a window; every entry counts at least one sample.
      if (ids[e] >= page_count || (e != first && ids[e] <= ids[e - 1]) ||
          prefix[e + 1] <= prefix[e]) {
        fail("bad page entry in window " + std::to_string(i));
      }
    }
    if ((flags[i] & kGapWindow) != 0 && last != first) {
      fail("gap window " + std::to_string(i) + " has samples");
    }
    // Each total must stay a run's span (see kMaxSpanTicks), so no sum below can wrap.
    if (ddr_ticks[i] > kMaxSpanTicks - ddr_total_ticks ||
        hbm_ticks[i] > kMaxSpanTicks - hbm_total_ticks) {
      fail("the window ticks add up to more than 2^62 by window " + std::to_string(i) +
           " (the file claims a run longer than any trace may span)");
    }
    ddr_total_ticks += ddr_ticks[i];
    hbm_total_ticks += hbm_ticks[i];
  }
}

PreparedPair prepare_pair(const TracePair& pair, const WindowOptions& options,
                          const ProgressFn& progress) {
  static const profiling::Op windowing("memtier.windowing", profiling::Category::kData);
  const profiling::Scope scope(windowing);
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

  const std::size_t w = set.windows.size();
  out.ddr_ticks.reserve(w);
  out.hbm_ticks.reserve(w);
  out.phase.reserve(w);
  out.flags.reserve(w);
  for (const Window& window : set.windows) {
    out.ddr_ticks.push_back(window.ddr_ticks);
    out.hbm_ticks.push_back(window.hbm_ticks);
    out.phase.push_back(window.phase);
    out.flags.push_back(window.gap ? kGapWindow : 0);
  }
  if (progress) progress(1, 3);
  const Memberships memberships = sort_memberships(set, pair.ddr, options.page_size_bits);
  if (progress) progress(2, 3);
  count_pages(set, memberships, options.page_size_bits, out);
  if (progress) progress(3, 3);
  out.finalize("prepared pair");
  return out;
}

std::vector<std::uint32_t> first_touched_pages(const PreparedPair& pair, std::size_t begin,
                                               std::size_t limit) {
  std::vector<std::uint8_t> seen(pair.pages.size(), 0);
  std::vector<std::uint32_t> order;
  for (std::size_t w = begin; w < pair.window_count() && order.size() < limit; ++w) {
    for (std::uint64_t e = pair.entry_offset[w];
         e < pair.entry_offset[w + 1] && order.size() < limit; ++e) {
      const std::uint32_t id = pair.entry_page[e];
      if (seen[id] != 0) continue;
      seen[id] = 1;
      order.push_back(id);
    }
  }
  return order;
}

}  // namespace sysgym::memtier
