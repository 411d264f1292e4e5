// memtier's extras in the npm package: trace pairs from bytes, and the what-if estimator behind
// `sysgym memtier estimate`. Everything else memtier does runs through the generic handles.
#include <emscripten/bind.h>

#include "../runtime.hpp"

#include "base/container.hpp"
#include "base/json_text.hpp"
#include "base/numbers.hpp"
#include "memtier/estimator.hpp"
#include "memtier/inspect_report.hpp"
#include "memtier/pair_source.hpp"
#include "memtier/prepared_file.hpp"
#include "memtier/reports.hpp"
#include "memtier/traces/load.hpp"

namespace sysgym::wasm {
namespace {

// A numeric window option as the native flag parses it when given as text (the bin), or checked
// against the same range when given as a number (the API).
nlohmann::json window_number(const std::string& key, const nlohmann::json& value) {
  const std::string flag = key == "window_len"  ? "--window-len"
                           : key == "page_size" ? "--page-size"
                                                : "--cpu-cycles-per-ms";
  if (key == "page_size") {
    if (value.is_string())
      return parse_integer(value.get<std::string>(), flag, memtier::kPageSizeBitsRange);
    return value;  // a number: the config reader checks it like any config value
  }
  const NumberRange range =
      key == "window_len" ? memtier::kWindowLenRange : memtier::kCpuCyclesPerMsRange;
  if (value.is_string()) return parse_number(value.get<std::string>(), flag, range);
  if (!value.is_number()) throw ConfigError(flag + ": expected a number, got " + value.dump());
  check_number(value.get<double>(), flag, range);
  return value;
}

bool is_window_number(const std::string& key) {
  return key == "window_len" || key == "page_size" || key == "cpu_cycles_per_ms";
}

std::span<const std::uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// One file of a pair, copied from JS (a string or bytes, as Embind converts them) into the heap,
// parsed, and its copy freed before the next file is copied: a pair's two files are never in
// the heap at once, which the heap (it never shrinks) would keep as its peak.
memtier::Trace load_js_trace(const emscripten::val& data, const std::string& label) {
  const std::string bytes = data.as<std::string>();
  return memtier::load_trace(bytes_of(bytes), label);
}

bool add_traces(const std::string& name, const emscripten::val& ddr, const emscripten::val& hbm) {
  return guarded([&] {
    auto pair = std::make_shared<memtier::TracePair>();
    pair->ddr = load_js_trace(ddr, name + " (DDR)");
    pair->hbm = load_js_trace(hbm, name + " (HBM)");
    memtier::validate_pair(*pair);
    memtier::pair_source_over(runtime().data)->add_traces(name, pair);
  });
}

bool add_prepared(const std::string& name, const std::string& bytes) {
  return guarded([&] {
    // The pair's big columns view the bytes, kept alive with it.
    auto owner = std::make_shared<const std::string>(bytes);
    auto pair = std::make_shared<const memtier::PreparedPair>(
        memtier::decode_prepared_pair(ContainerReader(bytes_of(*owner), name), owner));
    memtier::pair_source_over(runtime().data)->add(name, pair);
  });
}

std::string estimate_json(const std::string& name, const std::string& ranges, double hbm_factor) {
  std::string out;
  guarded([&] {
    const auto pair =
        memtier::pair_source_over(runtime().data)->load(name, memtier::WindowRequest{});
    const memtier::HbmRanges hbm(memtier::parse_address_ranges(ranges));
    const memtier::Estimate e = memtier::Estimator(*pair).estimate(hbm, hbm_factor);
    out = nlohmann::json{{"estimated_ms", e.estimated_ms},
                         {"ddr_ms", e.ddr_ms},
                         {"hbm_ms", e.hbm_ms},
                         {"windows", e.windows},
                         {"empty_windows", e.empty_windows},
                         {"samples", e.samples},
                         {"samples_in_hbm", e.samples_in_hbm}}
              .dump();
  });
  return out;
}

std::string estimate_report_text(const std::string& name, const std::string& windows_json,
                                 const std::string& ranges, const std::string& hbm_factor,
                                 const std::string& measured_bytes, bool has_measured,
                                 const std::string& measured_name, bool json) {
  std::string out;
  guarded([&] {
    nlohmann::json w = parse(windows_json);
    if (!w.is_object()) throw ConfigError("window options: expected a JSON object");
    for (auto& [key, value] : w.items()) {
      if (is_window_number(key)) value = window_number(key, value);
    }
    memtier::WindowRequest request;
    request.any_given = !w.empty();
    request.mode_given = true;  // estimate never picks the mode by itself: memai unless told
    request.options.mode = memtier::parse_window_mode(w.value("mode", "memai"));
    request.options.unit = memtier::parse_window_unit(w.value("unit", "ms"));
    if (w.contains("window_len")) request.options.window_len = w["window_len"].get<double>();
    request.options.page_size_bits = w.value("page_size", 13);
    request.options.cpu_cycles_per_ms = w.value("cpu_cycles_per_ms", 1.4e6);
    memtier::validate_window_options(request.options);
    const auto pair = memtier::pair_source_over(runtime().data)->load(name, request);
    memtier::HbmRanges hbm(memtier::parse_address_ranges(ranges));
    std::optional<memtier::Trace> measured;
    if (has_measured) measured = memtier::load_trace(bytes_of(measured_bytes), "measured");
    const double factor = parse_number(hbm_factor, "--hbm-factor", memtier::kHbmFactorRange);
    const nlohmann::json report =
        memtier::estimate_report(*pair, hbm, factor, measured ? &*measured : nullptr);
    out = json ? report.dump(2) : memtier::estimate_report_text(report, measured_name);
  });
  return out;
}

// `sysgym memtier inspect [--json]` of a file's bytes; the numeric options are the flags' texts
// ("" for a flag not given), parsed as natively.
std::string inspect_report_text(const std::string& name, const std::string& bytes,
                                const std::string& page_size, const std::string& interval_distance,
                                const std::string& cpu_cycles_per_ms, bool json) {
  std::string out;
  guarded([&] {
    memtier::InspectOptions options;
    if (!page_size.empty())
      options.page_size =
          static_cast<int>(parse_integer(page_size, "--page-size", memtier::kPageSizeBitsRange));
    if (!interval_distance.empty())
      options.interval_distance = static_cast<int>(
          parse_integer(interval_distance, "--interval-distance", memtier::kIntervalDistanceRange));
    if (!cpu_cycles_per_ms.empty())
      options.cpu_cycles_per_ms =
          parse_number(cpu_cycles_per_ms, "--cpu-cycles-per-ms", memtier::kCpuCyclesPerMsRange);
    const nlohmann::json report = memtier::inspect_report(bytes_of(bytes), name, options);
    out = json ? report.dump(2) : memtier::inspect_text(report);
  });
  return out;
}

// `sysgym memtier traces --json`: the named traces (a JSON list; empty: the shipped ones) at a
// capacity (a JSON hbm_capacity value).
std::string headroom_json(const std::string& names_json, const std::string& capacity_json) {
  std::string out;
  guarded([&] {
    std::vector<std::string> names =
        parse_json_text(names_json, "traces").get<std::vector<std::string>>();
    if (names.empty()) names = memtier::shipped_pair_names(*runtime().data);
    out = memtier::headroom_report(runtime().envs, runtime().policies, names,
                                   parse_json_text(capacity_json, "hbm_capacity"))
              .dump(2);
  });
  return out;
}

}  // namespace
}  // namespace sysgym::wasm

EMSCRIPTEN_BINDINGS(sysgym_memtier) {
  using namespace emscripten;
  using namespace sysgym::wasm;
  function("memtierAddTraces", &add_traces);
  function("memtierAddPrepared", &add_prepared);
  function("memtierEstimateJson", &estimate_json);
  function("memtierEstimateReportText", &estimate_report_text);
  function("memtierHeadroomJson", &headroom_json);
  function("memtierInspectReportText", &inspect_report_text);
}
