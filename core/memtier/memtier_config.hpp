// The configuration of memtier-v0: every key, its unit and its default. Unknown keys are errors
// that name the closest valid key.
// clang-format off
//
// | key                    | unit / values                                      | default                  |
// |------------------------|----------------------------------------------------|--------------------------|
// | trace                  | pair name for the PairSource (required)            | -                        |
// | window_mode            | "memai" or "aligned"                               | aligned if both traces count instructions, else memai |
// | window_len             | unit of comparison (aligned: instrs)               | mode default             |
// | unit                   | "ms", "instrs", "accesses" (memai)                 | "ms"                     |
// | page_size              | log2 bytes                                         | 13 (8 KiB)               |
// | cpu_cycles_per_ms      | cycles                                             | 1400000                  |
// | hbm_capacity           | bytes: 67108864, "64MiB", "25%" of the footprint, or [low, high] of those drawn at every reset | "25%" |
// | bins                   | address bins                                       | 64                       |
// | interval_distance      | log2 bytes: pages closer merge into one region     | 22 (4 MiB)               |
// | history                | previous windows' histograms observed              | 2                        |
// | migration_gbps         | GB/s (10^9 bytes per second)                       | 1.6384 (MemAI: 0.01 ms per 16 KiB) |
// | migration_ms_per_page  | ms per page moved (instead of GB/s)                | unset                    |
// | action_mode            | "bins" (MultiBinary) or "discrete"                 | "bins"                   |
// | admission              | "hottest" or "lowest_address"                      | "hottest"                |
// | episode_start          | first window                                       | 0                        |
// | episode_length         | windows (0: to the end of the trace)               | 0                        |
// | random_start           | draw the start in [episode_start, last possible]   | false                    |
// | reward_scale           | factor on -ms, or "auto"                           | "auto" (1 / mean DDR window time) |
// | free_initial_placement | the first placement of an episode costs no migration | true                   |
//
// clang-format on
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "memtier/pair_source.hpp"

namespace sysgym::memtier {

// The keys that window raw traces; a preprocessed pair brings its own windows and refuses them.
inline constexpr std::array<const char*, 5> kWindowKeys = {"window_mode", "window_len", "unit",
                                                           "page_size", "cpu_cycles_per_ms"};

enum class ActionMode { kBins, kDiscrete };
enum class Admission { kHottest, kLowestAddress };

struct MemtierConfig {
  std::string trace;
  WindowRequest windows;
  nlohmann::json hbm_capacity = "25%";
  std::size_t bins = 64;
  int interval_distance = 22;
  std::size_t history = 2;
  double migration_gbps = 1.6384;
  std::optional<double> migration_ms_per_page;
  ActionMode action_mode = ActionMode::kBins;
  Admission admission = Admission::kHottest;
  std::uint64_t episode_start = 0;
  std::uint64_t episode_length = 0;
  bool random_start = false;
  std::optional<double> reward_scale;  // empty: auto
  bool free_initial_placement = true;
  nlohmann::json input;     // the config as given (what a recording replays)
  nlohmann::json resolved;  // every key with its effective value
};

// Throws ConfigError naming the key (context: "<id> config").
MemtierConfig parse_memtier_config(const nlohmann::json& config, const std::string& id);

// Capacity in bytes from a number, a size string or a percentage of `footprint_bytes`, rounded
// down to whole pages. Throws ConfigError when it holds less than one page.
std::uint64_t resolve_capacity(const nlohmann::json& value, std::uint64_t footprint_bytes,
                               std::uint64_t page_bytes, const std::string& context);

// The capacities an env draws from: both ends equal for a single value, [low, high] for a
// range. Throws ConfigError as resolve_capacity does, and when low > high.
struct CapacityRange {
  std::uint64_t low = 0, high = 0;
};
CapacityRange resolve_capacity_range(const nlohmann::json& value, std::uint64_t footprint_bytes,
                                     std::uint64_t page_bytes, const std::string& context);

}  // namespace sysgym::memtier
