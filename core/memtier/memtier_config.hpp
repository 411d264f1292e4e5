// The configuration of memtier-v0. Every key, its type, unit, range and default is declared
// once, in memtier_schema() (memtier_config.cpp); `sysgym describe memtier`, the env page's config
// table and the web form print it. Unknown keys are errors that name the closest valid key.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "env/config_schema.hpp"
#include "memtier/pair_source.hpp"

namespace sysgym::memtier {

// The keys that window raw traces; a preprocessed pair brings its own windows and refuses them.
inline constexpr std::array<const char*, 5> kWindowKeys = {"window_mode", "window_len", "unit",
                                                           "page_size", "cpu_cycles_per_ms"};

enum class ActionMode { kBins, kDiscrete, kSwap };
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
  // The reward counts the window's saving over all-DDR (t_ddr - time - migration) instead of
  // -(time + migration); auto scale then divides by the mean window's DDR-HBM difference.
  bool reward_saving = false;
  bool free_initial_placement = true;
  nlohmann::json input;     // the config as given (what a recording replays)
  nlohmann::json resolved;  // every key with its effective value
};

// Every key of memtier-v0's config.
const ConfigSchema& memtier_schema();

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
