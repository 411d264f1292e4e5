// Where the time goes, in RL-Scope's manner: operations named once (env step and its phases,
// policy inference, learner update, replay sampling, ...) are timed as scopes when a profiler is
// active on the thread, and cost one thread-local load and a branch when none is.
//
//   const profiling::Op kStep("env.step", profiling::Category::kSimulation);
//   { profiling::Scope s(kStep); ... }
//
// A Profiler is installed on one thread (the shell's main thread) for the run it profiles; scopes
// on other threads (a vector env's worker threads) are not recorded, the main thread's wait for
// them is (their caller's scope). Each scope's begin and end cost time that lands partly inside
// its own interval and partly in its parent's: calibrate() measures both per scope, and the
// report subtracts them per occurrence (RL-Scope's overhead correction). Time comes from
// std::chrono::steady_clock (clock_gettime natively; performance.now under Emscripten).
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace sysgym::profiling {

// What an operation's time is spent on, for the breakdown RL-Scope reports.
enum class Category { kSimulation, kInference, kLearning, kData, kGlue, kBoundary };
const char* category_name(Category c);

// An operation: a static object, registered when constructed (names are unique; a second Op of
// the same name shares its id).
class Op {
 public:
  Op(const char* name, Category category);
  int id() const { return id_; }

 private:
  int id_;
};

struct OpInfo {
  std::string name;
  Category category;
};
// Every operation registered so far, by id.
std::vector<OpInfo> registered_ops();

using Clock = std::chrono::steady_clock;

// Per-scope costs of profiling, from calibrate(): `inside` lands in the scope's own measured
// interval, `outside` in its parent's (both in nanoseconds).
struct Overhead {
  double inside_ns = 0;
  double outside_ns = 0;
};

struct TraceEvent {
  int op = 0;
  std::int64_t begin_ns = 0;  // since the profiler started
  std::int64_t end_ns = 0;
  int depth = 0;
};

class Profiler {
 public:
  // `max_events`: scopes kept for a timeline (0: none), the first ones of the run.
  explicit Profiler(std::size_t max_events = 0);

  void begin(int op);
  void end();
  // The run is over: times are read up to now; open scopes are closed (a failed command).
  void finish();

  struct OpTotals {
    std::int64_t count = 0;
    std::int64_t inclusive_ns = 0;
    std::int64_t self_ns = 0;
    std::int64_t children = 0;     // scopes opened directly inside it
    std::int64_t descendants = 0;  // scopes opened inside it, at any depth
  };
  const std::vector<OpTotals>& totals() const { return totals_; }
  std::int64_t wall_ns() const { return wall_ns_; }
  std::int64_t scopes() const { return scopes_; }
  const std::vector<TraceEvent>& events() const { return events_; }
  std::int64_t dropped_events() const { return dropped_events_; }

 private:
  struct Open {
    int op;
    Clock::time_point start;
    std::int64_t child_ns;
    std::int64_t children;
    std::int64_t scopes_at_start;
    std::size_t event;  // index into events_, or SIZE_MAX
  };
  Clock::time_point start_;
  std::vector<Open> stack_;
  std::vector<OpTotals> totals_;
  std::vector<TraceEvent> events_;
  std::size_t max_events_;
  std::int64_t dropped_events_ = 0;
  std::int64_t scopes_ = 0;
  std::int64_t wall_ns_ = 0;
};

namespace detail {
inline thread_local Profiler* tls_profiler = nullptr;
}  // namespace detail

// The profiler scopes on this thread record into (nullptr: off). Inline, so that a scope with
// profiling off is a thread-local load and a branch where it stands, not a call
// (sysgym_profiling_bench: BM_ScopeOff against BM_NoScope).
inline Profiler* active() {
  return detail::tls_profiler;
}
// Installs `p` on this thread for the lifetime of the object (nesting is refused: a ConfigError).
class Activation {
 public:
  explicit Activation(Profiler& p);
  ~Activation();
  Activation(const Activation&) = delete;
  Activation& operator=(const Activation&) = delete;
};

class Scope {
 public:
  explicit Scope(const Op& op) : profiler_(active()) {
    if (profiler_ != nullptr) [[unlikely]]
      profiler_->begin(op.id());
  }
  ~Scope() {
    if (profiler_ != nullptr) [[unlikely]]
      profiler_->end();
  }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  Profiler* profiler_;
};

// Measures the profiler's own per-scope cost on this machine: `samples` empty scopes nested in a
// parent, on a profiler of its own (the active one, if any, is left alone).
Overhead calibrate(std::size_t samples = 200000);

// The report: per operation its count, inclusive and self time (corrected by `overhead` per
// occurrence), mean, share of the wall time; the unattributed rest of the wall time; and the
// check that self times and the rest add up to the corrected total. JSON, see profile_report.cpp.
nlohmann::json report(const Profiler& p, const Overhead& overhead);

// JS <-> WebAssembly crossings as the JS side timed them (wasm/js/profiling.mjs): every call into
// the module, with the JS timer's own cost per crossing (inside the timed interval and outside).
struct Crossings {
  std::int64_t count = 0;
  double measured_ns = 0;
  Overhead overhead;
  nlohmann::json calls = nlohmann::json::array();  // [{name, count, ms}] by the JS side
};

// The report with the crossings as an operation of their own (category "js-wasm boundary"): its
// self time is the time inside calls that no core scope covers (arguments and results converted,
// code outside the named operations); the unattributed rest is then the time in JS. The corrected
// wall time also loses the JS timer's cost, and the sum check still holds.
nlohmann::json with_crossings(nlohmann::json report, const Crossings& crossings);

// The report as the table `sysgym profile` prints (both shells print this text).
std::string report_text(const nlohmann::json& report);

// The scopes kept as Chrome trace-event JSON (complete "X" events, microseconds), which Perfetto
// and chrome://tracing open.
nlohmann::json chrome_trace(const Profiler& p);

}  // namespace sysgym::profiling
