#include "memtier/inspect_report.hpp"

#include <algorithm>

#include "base/append_format.hpp"
#include "base/container.hpp"
#include "base/quote.hpp"
#include "base/radix_sort.hpp"
#include "base/units.hpp"
#include "memtier/prepared_file.hpp"
#include "memtier/traces/load.hpp"
#include "memtier/traces/trace_file.hpp"
#include "memtier/windows.hpp"

namespace sysgym::memtier {
namespace {

constexpr std::size_t kRegionsShown = 8;

nlohmann::json regions_json(const std::vector<Region>& regions) {
  std::vector<Region> largest = regions;
  std::sort(largest.begin(), largest.end(),
            [](const auto& a, const auto& b) { return a.pages > b.pages; });
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < largest.size() && i < kRegionsShown; ++i) {
    out.push_back({{"range", format_hex(largest[i].lo) + ":" + format_hex(largest[i].hi)},
                   {"bytes", largest[i].hi - largest[i].lo},
                   {"sampled_pages", largest[i].pages}});
  }
  return out;
}

std::vector<std::uint64_t> sampled_pages(const Trace& trace, int page_bits) {
  std::vector<std::uint64_t> keys(trace.size());
  std::vector<std::uint32_t> unused(trace.size(), 0);
  for (std::size_t i = 0; i < trace.size(); ++i)
    keys[i] = (trace.vaddr[i] >> page_bits) << page_bits;
  radix_sort_pairs(keys, unused);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

nlohmann::json describe_trace(const Trace& trace, TraceFormat format, const std::string& name,
                              const InspectOptions& args) {
  const auto pages = sampled_pages(trace, args.page_size);
  const auto phases = trace.phases();
  const double tpm = ticks_per_ms(trace.time_base, args.cpu_cycles_per_ms);
  nlohmann::json out = {
      {"file", name},
      {"kind", "trace"},
      {"format", trace_format_name(format)},
      {"samples", trace.size()},
      {"time_base", time_base_name(trace.time_base)},
      {"first_timestamp", trace.timestamp.front()},
      {"last_timestamp", trace.timestamp.back()},
      {"duration_ms", static_cast<double>(trace.span_ticks()) / tpm},
      {"phases", phases.size()},
      {"first_phase", phases.front()},
      {"last_phase", phases.back()},
      {"has_instrs", trace.has_instrs()},
      {"sampled_pages", pages.size()},
      {"page_size", args.page_size},
      {"sampled_footprint_bytes", pages.size() << args.page_size},
      {"lowest_address", format_hex(*std::min_element(trace.vaddr.begin(), trace.vaddr.end()))},
      {"highest_address", format_hex(*std::max_element(trace.vaddr.begin(), trace.vaddr.end()))},
  };
  if (trace.has_instrs()) out["instructions"] = trace.instrs.back() - trace.instrs.front();
  const auto regions = detect_regions(pages, args.page_size, args.interval_distance);
  out["regions"] = regions.size();
  out["largest_regions"] = regions_json(regions);
  return out;
}

nlohmann::json describe_prepared(const PreparedPair& pair, const std::string& name,
                                 const InspectOptions& args) {
  std::size_t empty = 0;
  std::size_t gaps = 0;
  for (std::size_t w = 0; w < pair.window_count(); ++w) {
    empty += pair.window_samples(w) == 0 ? 1 : 0;
    gaps += (pair.flags[w] & kGapWindow) != 0 ? 1 : 0;
  }
  const auto regions =
      detect_regions(pair.pages.span(), pair.options.page_size_bits,
                     std::max(args.interval_distance, pair.options.page_size_bits));
  return {
      {"file", name},
      {"kind", kPreparedPairKind},
      {"ddr_source", pair.ddr_source},
      {"hbm_source", pair.hbm_source},
      {"ddr_samples", pair.ddr_samples},
      {"hbm_samples", pair.hbm_samples},
      {"mode", window_mode_name(pair.options.mode)},
      {"unit", window_unit_name(pair.options.unit)},
      {"window_len", pair.options.window_len.value_or(0.0)},
      {"page_size", pair.options.page_size_bits},
      {"cpu_cycles_per_ms", pair.options.cpu_cycles_per_ms},
      {"windows", pair.window_count()},
      {"windows_without_ddr_samples", empty},
      {"gap_windows", gaps},
      {"sampled_pages", pair.pages.size()},
      {"page_entries", pair.entry_page.size()},
      {"ddr_ms", pair.ddr_ms()},
      {"hbm_ms", pair.hbm_ms()},
      {"regions", regions.size()},
      {"largest_regions", regions_json(regions)},
  };
}

}  // namespace

nlohmann::json inspect_report(std::span<const std::uint8_t> bytes, const std::string& name,
                              const InspectOptions& options, const ProgressFn& progress) {
  const TraceFormat format = detect_trace_format(bytes, name);
  if (format != TraceFormat::kBinary)
    return describe_trace(load_trace(bytes, name, progress), format, name, options);
  const ContainerReader reader(bytes, name);
  nlohmann::json out = reader.kind() == kPreparedPairKind
                           ? describe_prepared(decode_prepared_pair(reader), name, options)
                           : describe_trace(decode_trace(reader), format, name, options);
  out["format_version"] = reader.version();
  out["checksum"] = format_hex(reader.checksum());
  return out;
}

std::string inspect_text(const nlohmann::json& j) {
  std::string out;
  for (const auto& [key, value] : j.items()) {
    if (key == "largest_regions") continue;
    append_format(out, "%-28s %s\n", key.c_str(),
                  // A file name may hold terminal escapes: shown, never sent to the terminal.
                  value.is_string() ? printable(value.get<std::string>(), 1024).c_str()
                                    : value.dump().c_str());
  }
  if (j.contains("largest_regions") && !j["largest_regions"].empty()) {
    out += "largest regions (by sampled pages):\n";
    for (const auto& r : j["largest_regions"]) {
      append_format(out, "  %-36s %10s  %llu pages\n", r["range"].get<std::string>().c_str(),
                    format_bytes(r["bytes"].get<std::uint64_t>()).c_str(),
                    static_cast<unsigned long long>(r["sampled_pages"].get<std::uint64_t>()));
    }
  }
  return out;
}

}  // namespace sysgym::memtier
