#include "looptune/executor_bench.hpp"

#include "base/data_store.hpp"
#include "looptune/looptune_env.hpp"
#include "looptune/measure.hpp"
#include "looptune/search.hpp"

namespace sysgym::looptune {

std::vector<BenchNest> executor_bench_nests() {
  std::vector<BenchNest> out;
  const DataStore no_files;
  for (const char* kernel :
       {"matmul:128x192x64", "matmul:256x256x256", "matmul:64x256x128", "conv3x3:1x16x32x16x16"}) {
    LooptuneEnv env({{"kernel", kernel}}, no_files);
    env.reset(0);
    const Schedule& start = env.schedule();
    out.push_back({kernel, "untuned", start.nest});
    for (const auto& [name, kind, width] : {std::tuple{"beam4bfs", SearchKind::kBeamBfs, 4},
                                            std::tuple{"anneal", SearchKind::kAnneal, 0}}) {
      Rng rng(0);
      const SearchResult found = run_search(
          kind, width, start, 10, [&env](const Schedule& s, Action a) { return env.after(s, a); },
          [&env](const LoopNest& nest) { return env.gflops(nest); }, SearchBudget{}, rng);
      Schedule s = start;
      for (Action a : found.actions)
        s = *env.after(s, a);
      out.push_back({kernel, name, s.nest});
    }
  }
  return out;
}

nlohmann::json executor_bench(double min_seconds, const ProgressFn& progress) {
  const std::vector<BenchNest> nests = executor_bench_nests();
  Measurer measurer(min_seconds);
  nlohmann::json out = nlohmann::json::array();
  for (const BenchNest& b : nests) {
    const Measurement m = measurer.measure(b.nest, false);
    out.push_back({{"kernel", b.kernel},
                   {"found_by", b.found_by},
                   {"micro_kernel", kernel_name(pick_kernel(b.nest, false))},
                   {"loops", loops_to_json(b.nest)},
                   {"gflops", m.best_gflops},
                   {"median_gflops", m.median_gflops},
                   {"runs", m.runs}});
    if (progress) progress(out.size(), nests.size());
  }
  return out;
}

}  // namespace sysgym::looptune
