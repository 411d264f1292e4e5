#include "looptune/measure.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "looptune/cost_model.hpp"

namespace sysgym::looptune {

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
  int reps = 1;
  double total = 0;  // the calibrating runs warm the caches and count toward min_seconds
  while (true) {
    const double took = time_runs(reps);
    total += took;
    if (took >= kSampleSeconds || reps >= (1 << 20)) break;
    reps *= 2;
  }
  std::vector<double> per_run;
  while (total < min_seconds_ || static_cast<int>(per_run.size()) < min_runs_) {
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
