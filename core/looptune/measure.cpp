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
  std::vector<double> runs;
  double total = 0;
  while (total < min_seconds_ || static_cast<int>(runs.size()) < min_runs_) {
    const auto start = std::chrono::steady_clock::now();
    executor.run(o.a.data(), o.b.data(), o.out.data());
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    runs.push_back(took.count());
    total += took.count();
  }
  std::sort(runs.begin(), runs.end());
  const double flops = p.flops();
  Measurement m{flops / std::max(runs.front(), 1e-12) * 1e-9,
                flops / std::max(runs[runs.size() / 2], 1e-12) * 1e-9,
                static_cast<int>(runs.size()), total};
  memo_.emplace(key, m);
  return m;
}

double probe_peak_gflops(double min_seconds) {
  Measurer measurer(min_seconds, 5);
  return measurer.measure(peak_nest(), false).best_gflops;
}

}  // namespace sysgym::looptune
