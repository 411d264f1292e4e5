// The profiler in the npm package (wasm/js/profiling.mjs drives it): the same core scopes and
// report as `sysgym profile`, recorded while JS runs anything on this module, with the JS side's
// timings of its calls into the module folded in as the JS <-> WebAssembly boundary.
#include <emscripten/bind.h>

#include <memory>
#include <optional>

#include "profiling/profiler.hpp"
#include "runtime.hpp"

namespace sysgym::wasm {
namespace {

class ProfilerHandle {
 public:
  // Calibrates (a fraction of a second), then records every scope until stop(); nullptr when a
  // profiler is already recording (one at a time, as natively).
  static ProfilerHandle* start(double max_events) {
    ProfilerHandle* made = nullptr;
    guarded([&] {
      auto h = std::unique_ptr<ProfilerHandle>(new ProfilerHandle(profiling::calibrate()));
      h->profiler_.emplace(static_cast<std::size_t>(max_events));
      h->on_.emplace(*h->profiler_);
      made = h.release();
    });
    return made;
  }

  void stop() {
    if (!on_) return;
    profiler_->finish();
    on_.reset();
  }

  // The report with the JS side's crossings ({count, measured_ns, inside_ns, outside_ns, calls}),
  // "" after an error.
  std::string report_json(const std::string& crossings_json) const {
    std::string out;
    guarded([&] {
      const nlohmann::json c = parse(crossings_json);
      profiling::Crossings crossings;
      crossings.count = c.at("count").get<std::int64_t>();
      crossings.measured_ns = c.at("measured_ns").get<double>();
      crossings.overhead = {c.at("inside_ns").get<double>(), c.at("outside_ns").get<double>()};
      crossings.calls = c.at("calls");
      out = profiling::with_crossings(profiling::report(*profiler_, overhead_), crossings).dump();
    });
    return out;
  }

  std::string chrome_trace_json() const { return profiling::chrome_trace(*profiler_).dump(); }

 private:
  explicit ProfilerHandle(profiling::Overhead overhead) : overhead_(overhead) {}
  profiling::Overhead overhead_;
  std::optional<profiling::Profiler> profiler_;
  std::optional<profiling::Activation> on_;
};

// A report (as reportJson gives it, fields added or not) as the table `sysgym profile` prints.
std::string profile_report_text(const std::string& report_json) {
  std::string out;
  guarded([&] { out = profiling::report_text(parse(report_json)); });
  return out;
}

// The cheapest call into the module: what the JS side times to calibrate its own cost.
int profiler_empty_call() {
  return 0;
}

}  // namespace
}  // namespace sysgym::wasm

EMSCRIPTEN_BINDINGS(sysgym_profiling) {
  using sysgym::wasm::ProfilerHandle;
  emscripten::function("profilerEmptyCall", &sysgym::wasm::profiler_empty_call);
  emscripten::function("profileReportText", &sysgym::wasm::profile_report_text);
  emscripten::class_<ProfilerHandle>("ProfilerHandle")
      .class_function("start", &ProfilerHandle::start, emscripten::allow_raw_pointers())
      .function("stop", &ProfilerHandle::stop)
      .function("reportJson", &ProfilerHandle::report_json)
      .function("chromeTraceJson", &ProfilerHandle::chrome_trace_json);
}
