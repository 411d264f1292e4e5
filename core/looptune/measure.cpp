#include "looptune/measure.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "looptune/cost_model.hpp"
#include "looptune/limits.hpp"

namespace sysgym::looptune {

namespace {

std::string about(double seconds) {
  char text[48];
  if (seconds < 90) {
    std::snprintf(text, sizeof text, "about %.1f s", seconds);
  } else if (seconds < 5400) {
    std::snprintf(text, sizeof text, "about %.0f min", seconds / 60);
  } else {
    std::snprintf(text, sizeof text, "about %.1f h", seconds / 3600);
  }
  return text;
}

}  // namespace

std::string measuring_estimate(const LoopNest& nest, const CostModel& model, bool annotations) {
  char rate[96];
  std::snprintf(rate, sizeof rate, " (%.4g GFLOP at the cost model's %.3g GFLOPS)",
                nest.problem().flops() * 1e-9, model.gflops(nest, annotations));
  return about(model.seconds(nest, annotations)) + rate;
}

void check_measurable(const std::shared_ptr<const Problem>& problem, const CostModel& model,
                      bool annotations, const std::string& instead) {
  const LoopNest untuned = LoopNest::initial(problem);
  if (model.seconds(untuned, annotations) <= kMaxMeasuredRunSeconds) return;
  throw ConfigError(quote(problem->name) + ": one run of its untuned nest takes " +
                    measuring_estimate(untuned, model, annotations) + ", and a nest measured " +
                    "here may run for " + about(kMaxMeasuredRunSeconds).substr(6) + "; " + instead);
}

Measurement Measurer::measure(const LoopNest& nest, bool annotations) {
  const std::uint64_t key = nest.hash() ^ (annotations ? 0x9E3779B97F4A7C15ull : 0);
  if (const auto it = memo_.find(key); it != memo_.end()) return it->second;
  const Problem& p = nest.problem();
  auto [at, fresh] = operands_.try_emplace(p.name);
  if (fresh) at->second = make_operands(p, 1);
  Operands& o = at->second;
  const Executor executor(nest, annotations);
  const auto time_runs = [&](int reps) {
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r)
      executor.run(o.a.data(), o.b.data(), o.out.data());
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // Each sample runs the nest often enough to last kSampleSeconds: a browser's clock ticks in
  // 0.1 ms steps (less precise on purpose, and jittered), a small nest runs in microseconds.
  // Doubling until a sample lasts that long trusts no single short reading.
  constexpr double kSampleSeconds = 0.002;
  // A nest whose one run lasts half a second is its own sample (a warm cache is nothing against
  // it), and min_runs gives way once a second of samples is in: a slow untuned nest costs one or
  // two runs, not four (matmul:1024^3 untuned: 5.5 s a run, 22 s before).
  constexpr double kLongRunSeconds = 0.5;
  constexpr double kEnoughSeconds = 1.0;
  int reps = 1;
  double total = 0;  // the calibrating runs warm the caches and count toward min_seconds
  while (true) {
    const double took = time_runs(reps);
    total += took;
    if (took >= kSampleSeconds || reps >= (1 << 20)) break;
    reps *= 2;
  }
  std::vector<double> per_run;
  if (reps == 1 && total >= kLongRunSeconds) per_run.push_back(total);
  const auto sampled_enough = [&] {
    const bool asked_for = total >= min_seconds_ && static_cast<int>(per_run.size()) >= min_runs_;
    const bool a_second_of_samples = !per_run.empty() && total >= kEnoughSeconds;
    return asked_for || a_second_of_samples;
  };
  while (!sampled_enough()) {
    const double took = time_runs(reps);
    total += took;
    // A pause during calibration (the machine busy, a collection in the browser) can make a
    // few runs look long enough; samples that short read a coarse clock as 0 s and would claim
    // an absurd rate (seen: 5 x 10^8 GFLOPS under load). Such a sample is dropped and the
    // runs per sample doubled.
    if (took < kSampleSeconds / 2 && reps < (1 << 20)) {
      reps *= 2;
      continue;
    }
    per_run.push_back(took / reps);
  }
  std::sort(per_run.begin(), per_run.end());
  const double flops = p.flops();
  Measurement m{flops / std::max(per_run.front(), 1e-12) * 1e-9,
                flops / std::max(per_run[per_run.size() / 2], 1e-12) * 1e-9,
                static_cast<int>(per_run.size()) * reps, total};
  memo_.emplace(key, m);
  return m;
}

double probe_peak_gflops(double min_seconds) {
  Measurer measurer(min_seconds, 5);
  return measurer.measure(peak_nest(), false).best_gflops;
}

}  // namespace sysgym::looptune
