// The executor's benchmark, the same in every build: a fixed set of nests (each kernel's
// untuned nest and the nests two seeded searches find on the cost model, which decides alike in
// every build) measured here. Natively (`sysgym looptune bench --executor`) and in WebAssembly
// (`sysgym.looptune.executorBench()`), so wasm/bench/looptune_bench.mjs compares them nest by
// nest.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/progress.hpp"
#include "looptune/loop_nest.hpp"

namespace sysgym::looptune {

struct BenchNest {
  std::string kernel;
  std::string found_by;  // "untuned", or the search that found it
  LoopNest nest;
};

std::vector<BenchNest> executor_bench_nests();

// [{kernel, found_by, micro_kernel, loops, gflops, median_gflops, runs}] for every nest,
// each timed for at least `min_seconds`.
nlohmann::json executor_bench(double min_seconds, const ProgressFn& progress = {});

}  // namespace sysgym::looptune
