// sysgym memtier inspect: what a trace or preprocessed file holds.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>

#include "base/container.hpp"
#include "base/radix_sort.hpp"
#include "base/units.hpp"
#include "families/memtier/memtier_commands.hpp"
#include "files.hpp"
#include "memtier/hbm_ranges.hpp"
#include "memtier/prepared_file.hpp"
#include "memtier/regions.hpp"
#include "memtier/traces/load.hpp"
#include "memtier/traces/trace_file.hpp"
#include "numeric_flags.hpp"
#include "window_flags.hpp"

namespace sysgym::cli {
namespace {

constexpr std::size_t kRegionsShown = 8;

struct InspectArgs {
  std::string file;
  int page_size = 13;
  int interval_distance = memtier::kDefaultIntervalDistance;
  double cpu_cycles_per_ms = 1.4e6;
  bool json = false;
};

nlohmann::json regions_json(const std::vector<memtier::Region>& regions) {
  std::vector<memtier::Region> largest = regions;
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

std::vector<std::uint64_t> sampled_pages(const memtier::Trace& trace, int page_bits) {
  std::vector<std::uint64_t> keys(trace.size());
  std::vector<std::uint32_t> unused(trace.size(), 0);
  for (std::size_t i = 0; i < trace.size(); ++i)
    keys[i] = (trace.vaddr[i] >> page_bits) << page_bits;
  radix_sort_pairs(keys, unused);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

nlohmann::json describe_trace(const memtier::Trace& trace, memtier::TraceFormat format,
                              const InspectArgs& args) {
  const auto pages = sampled_pages(trace, args.page_size);
  const auto phases = trace.phases();
  const double tpm = memtier::ticks_per_ms(trace.time_base, args.cpu_cycles_per_ms);
  nlohmann::json out = {
      {"file", args.file},
      {"kind", "trace"},
      {"format", memtier::trace_format_name(format)},
      {"samples", trace.size()},
      {"time_base", memtier::time_base_name(trace.time_base)},
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
  const auto regions = memtier::detect_regions(pages, args.page_size, args.interval_distance);
  out["regions"] = regions.size();
  out["largest_regions"] = regions_json(regions);
  return out;
}

nlohmann::json describe_prepared(const memtier::PreparedPair& pair, const InspectArgs& args) {
  std::size_t empty = 0;
  std::size_t gaps = 0;
  for (std::size_t w = 0; w < pair.window_count(); ++w) {
    empty += pair.window_samples(w) == 0 ? 1 : 0;
    gaps += (pair.flags[w] & memtier::kGapWindow) != 0 ? 1 : 0;
  }
  const auto regions =
      memtier::detect_regions(pair.pages.span(), pair.options.page_size_bits,
                              std::max(args.interval_distance, pair.options.page_size_bits));
  return {
      {"file", args.file},
      {"kind", memtier::kPreparedPairKind},
      {"ddr_source", pair.ddr_source},
      {"hbm_source", pair.hbm_source},
      {"ddr_samples", pair.ddr_samples},
      {"hbm_samples", pair.hbm_samples},
      {"mode", memtier::window_mode_name(pair.options.mode)},
      {"unit", memtier::window_unit_name(pair.options.unit)},
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

void print_text(const nlohmann::json& j) {
  for (const auto& [key, value] : j.items()) {
    if (key == "largest_regions") continue;
    std::printf("%-28s %s\n", key.c_str(),
                value.is_string() ? value.get<std::string>().c_str() : value.dump().c_str());
  }
  if (j.contains("largest_regions") && !j["largest_regions"].empty()) {
    std::printf("largest regions (by sampled pages):\n");
    for (const auto& r : j["largest_regions"]) {
      std::printf("  %-36s %10s  %llu pages\n", r["range"].get<std::string>().c_str(),
                  format_bytes(r["bytes"].get<std::uint64_t>()).c_str(),
                  static_cast<unsigned long long>(r["sampled_pages"].get<std::uint64_t>()));
    }
  }
}

void run_inspect(const InspectArgs& args) {
  const MappedFile file(args.file);
  const std::span<const std::uint8_t> bytes = file.bytes();
  const memtier::TraceFormat format = memtier::detect_trace_format(bytes, args.file);
  nlohmann::json out;
  if (format == memtier::TraceFormat::kBinary) {
    const ContainerReader reader(bytes, args.file);
    if (reader.kind() == memtier::kPreparedPairKind) {
      out = describe_prepared(memtier::decode_prepared_pair(reader), args);
    } else {
      out = describe_trace(memtier::decode_trace(reader), format, args);
    }
    out["format_version"] = reader.version();
    out["checksum"] = format_hex(reader.checksum());
  } else {
    out = describe_trace(read_trace_file(args.file), format, args);
  }
  if (args.json) {
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    print_text(out);
  }
}

}  // namespace

void add_inspect_command(CLI::App& app) {
  auto args = std::make_shared<InspectArgs>();
  CLI::App* command = app.add_subcommand("inspect", "Show what a trace or preprocessed file holds");
  command->footer(
      "Examples:\n  sysgym memtier inspect data/synth/phased.ddr.csv\n  sysgym memtier inspect "
      "run.bin --json");
  command
      ->add_option("file", args->file, "A trace (CSV, perf script, binary) or a preprocessed pair")
      ->required();
  add_integer_flag(*command, "--page-size", args->page_size, "log2 of the page size for footprints",
                   memtier::kPageSizeBitsRange);
  add_integer_flag(*command, "--interval-distance", args->interval_distance,
                   "Pages closer than 2^N bytes belong to one region",
                   {memtier::kMinPageSizeBits, 63});
  add_number_flag(*command, "--cpu-cycles-per-ms", args->cpu_cycles_per_ms,
                  "CPU cycles per millisecond", memtier::kCpuCyclesPerMsRange);
  command->add_flag("--json", args->json, "Print one JSON object");
  command->callback([args] { run_inspect(*args); });
}

}  // namespace sysgym::cli
