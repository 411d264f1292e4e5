#include "memtier/memtier_config.hpp"

#include <cmath>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/units.hpp"
#include "env/config_reader.hpp"

namespace sysgym::memtier {

const ConfigSchema& memtier_schema() {
  static const ConfigSchema schema({
      string_key("trace",
                 "the trace pair to replay: DDR_FILE,HBM_FILE; PREFIX (PREFIX.ddr.* + "
                 "PREFIX.hbm.*); a preprocessed PAIR.bin; a shipped name such as lammps (native) "
                 "or a pair added from JavaScript; or synth:PATTERN[:SAMPLES[:SEED[:MIB]]]",
                 true),
      with_default_text(
          choice_key("window_mode", "aligned", {"memai", "aligned"},
                     "how raw traces are cut into windows (a preprocessed pair brings its own)"),
          "aligned when both traces count instructions, else memai"),
      with_default_text(number_key("window_len", nullptr, kWindowLenRange.min, kWindowLenRange.max,
                                   "window length, or null for the mode's default",
                                   "in units; aligned: instructions"),
                        "the mode's default"),
      choice_key("unit", "ms", {"ms", "instrs", "accesses"}, "what a memai window's length counts"),
      integer_key("page_size", 13, kMinPageSizeBits, kMaxPageSizeBits, "page size (13: 8 KiB)",
                  "log2 bytes"),
      number_key("cpu_cycles_per_ms", 1.4e6, kCpuCyclesPerMsRange.min, kCpuCyclesPerMsRange.max,
                 "clock of cycle-stamped traces", "cycles"),
      value_key("hbm_capacity", "25%",
                "HBM size: bytes, a size such as \"64MiB\", a percentage of the footprint such "
                "as \"25%\", or [low, high] of those, one drawn at every reset"),
      fixed_by_policy(integer_key("bins", 64, 1, 65536, "address bins the agent places")),
      fixed_by_policy(integer_key("interval_distance", 22, kMinPageSizeBits, 63,
                                  "pages closer than this merge into one region (22: 4 MiB)",
                                  "log2 bytes")),
      fixed_by_policy(integer_key("history", 2, 0, 16,
                                  "previous windows' histograms in the observation", "windows")),
      number_key("migration_gbps", 1.6384, 1e-6, 1e6,
                 "migration bandwidth (MemAI: 0.01 ms per 16 KiB)", "GB/s, 10^9 bytes per second"),
      with_default_text(
          number_key("migration_ms_per_page", nullptr, 0, 1e9,
                     "migration cost per page moved, instead of migration_gbps", "ms"),
          "unset"),
      fixed_by_policy(choice_key("action_mode", "bins", {"bins", "discrete", "swap"},
                                 "bins: MultiBinary(bins), the desired set; discrete: "
                                 "Discrete(2 bins + 1), keep or move one bin; swap: Discrete(13), "
                                 "keep or swap best-scored pages in, by budget and margin, from "
                                 "the first-touch placement (page_swaps.hpp)")),
      fixed_by_policy(choice_key("admission", "hottest", {"hottest", "lowest_address"},
                                 "which requested bins enter a full HBM first")),
      integer_key("episode_start", 0, 0, 9.3e18, "first window of an episode", "window"),
      integer_key("episode_length", 0, 0, 9.3e18, "windows per episode; 0: to the end of the trace",
                  "windows"),
      boolean_key("random_start", false,
                  "draw each episode's start in [episode_start, the last possible]"),
      choice_key("reward", "time", {"time", "saving"},
                 "time: -(window time + migration); saving: the window's saving over all-DDR "
                 "minus migration (the same optimum, with the constant all-DDR time taken out)"),
      value_key("reward_scale", "auto",
                "factor on -ms: a positive number, or \"auto\" for 1 / the mean all-DDR window "
                "time"),
      boolean_key("free_initial_placement", true,
                  "the first placement of an episode costs no migration (where data is "
                  "allocated)"),
  });
  return schema;
}

MemtierConfig parse_memtier_config(const nlohmann::json& config, const std::string& id) {
  const ConfigSchema& k = memtier_schema();
  ConfigReader r(config, id + " config");
  MemtierConfig c;
  c.trace = r.string(k.at("trace"));
  if (c.trace.empty())
    r.fail("trace",
           "is required: the trace pair to replay (a name such as lammps, PREFIX, DDR,HBM, "
           "PAIR.bin or synth:PATTERN)");
  WindowOptions& w = c.windows.options;
  for (const char* key : kWindowKeys) {
    c.windows.any_given = c.windows.any_given || config.contains(key);
  }
  c.windows.mode_given = config.contains("window_mode");
  w.mode = parse_window_mode(r.choice(k.at("window_mode")));
  const nlohmann::json* len = r.raw("window_len");
  if (len != nullptr && !len->is_null()) {
    if (!len->is_number() || !(len->get<double>() >= kWindowLenRange.min) ||
        !(len->get<double>() <= kWindowLenRange.max)) {
      r.fail("window_len", "must be a number from " + number_text(kWindowLenRange.min) + " to " +
                               number_text(kWindowLenRange.max) +
                               " (or null for the mode's default), got " + printable(len->dump()));
    }
    w.window_len = len->get<double>();
  }
  r.resolve("window_len", w.window_len ? nlohmann::json(*w.window_len) : nlohmann::json());
  w.unit = parse_window_unit(r.choice(k.at("unit")));
  w.page_size_bits = static_cast<int>(r.integer(k.at("page_size")));
  w.cpu_cycles_per_ms = r.number(k.at("cpu_cycles_per_ms"));

  if (const nlohmann::json* capacity = r.raw("hbm_capacity")) {
    const auto is_amount = [](const nlohmann::json& v) {
      return v.is_string() || v.is_number_unsigned() || v.is_number_integer();
    };
    const bool range = capacity->is_array() && capacity->size() == 2 && is_amount((*capacity)[0]) &&
                       is_amount((*capacity)[1]);
    if (!is_amount(*capacity) && !range) {
      r.fail("hbm_capacity",
             "must be bytes (a number), a size such as \"64MiB\", a percentage such as \"25%\", "
             "or a range [low, high] of those drawn from at every reset; got " +
                 capacity->dump());
    }
    c.hbm_capacity = *capacity;
  }
  r.resolve("hbm_capacity", c.hbm_capacity);
  c.bins = static_cast<std::size_t>(r.integer(k.at("bins")));
  c.interval_distance = static_cast<int>(r.integer(k.at("interval_distance")));
  c.history = static_cast<std::size_t>(r.integer(k.at("history")));
  c.migration_gbps = r.number(k.at("migration_gbps"));
  if (r.raw("migration_ms_per_page") != nullptr) {
    c.migration_ms_per_page = r.number(k.at("migration_ms_per_page"));
    if (config.contains("migration_gbps")) {
      r.fail("migration_ms_per_page", "and 'migration_gbps' both set the migration cost; give one");
    }
  }
  const std::string mode = r.choice(k.at("action_mode"));
  c.action_mode = mode == "bins"       ? ActionMode::kBins
                  : mode == "discrete" ? ActionMode::kDiscrete
                                       : ActionMode::kSwap;
  c.admission =
      r.choice(k.at("admission")) == "hottest" ? Admission::kHottest : Admission::kLowestAddress;
  c.episode_start = static_cast<std::uint64_t>(r.integer(k.at("episode_start")));
  c.episode_length = static_cast<std::uint64_t>(r.integer(k.at("episode_length")));
  c.random_start = r.boolean(k.at("random_start"));
  c.reward_saving = r.choice(k.at("reward")) == "saving";
  if (const nlohmann::json* scale = r.raw("reward_scale")) {
    if (scale->is_string() && scale->get<std::string>() == "auto") {
      r.resolve("reward_scale", "auto");
    } else if (scale->is_number() && scale->get<double>() > 0.0 &&
               std::isfinite(scale->get<double>())) {
      c.reward_scale = scale->get<double>();
      r.resolve("reward_scale", *c.reward_scale);
    } else {
      r.fail("reward_scale", "must be a positive number or \"auto\", got " + scale->dump());
    }
  } else {
    r.resolve("reward_scale", "auto");
  }
  c.free_initial_placement = r.boolean(k.at("free_initial_placement"));
  r.finish();
  c.input = config.is_null() ? nlohmann::json::object() : config;
  c.resolved = r.resolved();
  return c;
}

std::uint64_t resolve_capacity(const nlohmann::json& value, std::uint64_t footprint_bytes,
                               std::uint64_t page_bytes, const std::string& context) {
  std::uint64_t bytes = 0;
  if (value.is_number()) {
    // Checked as a double first: casting a negative or huge floating value is undefined.
    const double number = value.get<double>();
    if (!(number >= 0 && number < 1.8e19)) {
      throw ConfigError(context + ": 'hbm_capacity' " + value.dump() + " is not a number of bytes");
    }
    bytes =
        value.is_number_float() ? static_cast<std::uint64_t>(number) : value.get<std::uint64_t>();
  } else {
    const std::string text = value.get<std::string>();
    if (!text.empty() && text.back() == '%') {
      double percent = 0.0;
      if (!parse_plain_decimal(std::string_view(text).substr(0, text.size() - 1), percent) ||
          !(percent > 0.0)) {
        throw ConfigError(context + ": 'hbm_capacity' percentage " + quote(text) +
                          " is not a number above 0");
      }
      // A share of the footprint above all of it is a typo, not a capacity (150 % for 15 %?).
      if (percent > 100.0) {
        throw ConfigError(context + ": 'hbm_capacity' percentage " + quote(text) +
                          " is more than the whole footprint (at most 100%); give bytes, such as "
                          "64MiB, for an HBM larger than the data");
      }
      bytes = static_cast<std::uint64_t>(static_cast<double>(footprint_bytes) * percent / 100.0);
    } else {
      try {
        bytes = parse_byte_size(text);
      } catch (const ConfigError& e) {
        throw ConfigError(context + ": 'hbm_capacity' " + e.what());
      }
    }
  }
  bytes = bytes / page_bytes * page_bytes;
  if (bytes < page_bytes) {
    throw ConfigError(context + ": 'hbm_capacity' " + value.dump() + " holds less than one page (" +
                      std::to_string(page_bytes) + " bytes); HBM must hold at least one page");
  }
  return bytes;
}

CapacityRange resolve_capacity_range(const nlohmann::json& value, std::uint64_t footprint_bytes,
                                     std::uint64_t page_bytes, const std::string& context) {
  if (!value.is_array()) {
    const std::uint64_t bytes = resolve_capacity(value, footprint_bytes, page_bytes, context);
    return {bytes, bytes};
  }
  const CapacityRange range = {resolve_capacity(value[0], footprint_bytes, page_bytes, context),
                               resolve_capacity(value[1], footprint_bytes, page_bytes, context)};
  if (range.low > range.high) {
    throw ConfigError(context + ": 'hbm_capacity' range " + value.dump() + " has its low end (" +
                      std::to_string(range.low) + " bytes) above its high end (" +
                      std::to_string(range.high) + " bytes)");
  }
  return range;
}

}  // namespace sysgym::memtier
