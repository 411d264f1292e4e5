#include "profiling/profiler.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <mutex>

#include "base/error.hpp"

namespace sysgym::profiling {
namespace {

constexpr std::size_t kNoEvent = std::numeric_limits<std::size_t>::max();

struct Registry {
  std::mutex mutex;
  std::vector<OpInfo> ops;
};

Registry& registry() {
  static Registry r;
  return r;
}

std::int64_t since(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(to - from).count();
}

}  // namespace

const char* category_name(Category c) {
  switch (c) {
    case Category::kSimulation:
      return "simulation";
    case Category::kInference:
      return "inference";
    case Category::kLearning:
      return "learning";
    case Category::kData:
      return "data";
    case Category::kGlue:
      return "framework";
    case Category::kBoundary:
      return "js-wasm boundary";
  }
  return "?";
}

Op::Op(const char* name, Category category) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  for (std::size_t i = 0; i < r.ops.size(); ++i) {
    if (r.ops[i].name == name) {
      id_ = static_cast<int>(i);
      return;
    }
  }
  id_ = static_cast<int>(r.ops.size());
  r.ops.push_back({name, category});
}

std::vector<OpInfo> registered_ops() {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  return r.ops;
}

Profiler::Profiler(std::size_t max_events) : start_(Clock::now()), max_events_(max_events) {
  stack_.reserve(64);
}

void Profiler::begin(int op) {
  std::size_t event = kNoEvent;
  const Clock::time_point now = Clock::now();
  if (events_.size() < max_events_) {
    event = events_.size();
    events_.push_back({op, since(start_, now), 0, static_cast<int>(stack_.size())});
  } else if (max_events_ > 0) {
    ++dropped_events_;
  }
  if (!stack_.empty()) ++stack_.back().children;
  stack_.push_back({op, now, 0, 0, scopes_, event});
  ++scopes_;
}

void Profiler::end() {
  if (stack_.empty()) return;  // a scope opened before the profiler was installed
  const Clock::time_point now = Clock::now();
  const Open open = stack_.back();
  stack_.pop_back();
  const std::int64_t inclusive = since(open.start, now);
  if (static_cast<std::size_t>(open.op) >= totals_.size()) totals_.resize(open.op + 1);
  OpTotals& t = totals_[static_cast<std::size_t>(open.op)];
  ++t.count;
  t.inclusive_ns += inclusive;
  t.self_ns += inclusive - open.child_ns;
  t.children += open.children;
  t.descendants += scopes_ - open.scopes_at_start - 1;
  if (!stack_.empty()) stack_.back().child_ns += inclusive;
  if (open.event != kNoEvent) events_[open.event].end_ns = since(start_, now);
}

void Profiler::finish() {
  while (!stack_.empty())
    end();
  wall_ns_ = since(start_, Clock::now());
}

Activation::Activation(Profiler& p) {
  if (detail::tls_profiler != nullptr)
    throw ConfigError("profiling is already on in this run: profile cannot be nested in itself");
  detail::tls_profiler = &p;
}

Activation::~Activation() {
  detail::tls_profiler = nullptr;
}

Overhead calibrate(std::size_t samples) {
  static const Op kParent("profiler.calibration", Category::kGlue);
  static const Op kChild("profiler.calibration.empty", Category::kGlue);
  // In batches, keeping each cost's median: a batch the scheduler interrupted would otherwise
  // charge its pause to every scope (4 ms over 200,000 scopes is 20 ns each, half the cost), and
  // the smallest batch is below the cost a run meets (by a third under ASan).
  constexpr std::size_t kBatches = 21;
  const std::size_t per_batch = std::max<std::size_t>(1, samples / kBatches);
  std::vector<double> inside, outside;
  for (std::size_t b = 0; b < kBatches; ++b) {
    Profiler p;
    p.begin(kParent.id());
    for (std::size_t i = 0; i < per_batch; ++i) {
      p.begin(kChild.id());
      p.end();
    }
    p.end();
    const auto& parent = p.totals()[static_cast<std::size_t>(kParent.id())];
    const auto& child = p.totals()[static_cast<std::size_t>(kChild.id())];
    const auto n = static_cast<double>(per_batch);
    // An empty child's measured interval is all overhead (inside); the parent's self time is the
    // rest of each child's begin and end (outside), plus the loop, which a real parent pays too.
    inside.push_back(static_cast<double>(child.inclusive_ns) / n);
    outside.push_back(static_cast<double>(parent.self_ns) / n);
  }
  const auto median = [](std::vector<double>& v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  return {median(inside), median(outside)};
}

}  // namespace sysgym::profiling
