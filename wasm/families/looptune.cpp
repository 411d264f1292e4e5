// looptune's extras in the npm package: a nest measured in this JS engine (the executor built
// with 128-bit WebAssembly SIMD), and the executor's benchmark nest by nest, which
// wasm/bench/looptune_bench.mjs sets beside the native tool's.
#include <emscripten/bind.h>

#include "../runtime.hpp"

#include "env/config_reader.hpp"
#include "looptune/cost_model.hpp"
#include "looptune/executor.hpp"
#include "looptune/executor_bench.hpp"
#include "looptune/measure.hpp"
#include "looptune/problems.hpp"

namespace sysgym::wasm {
namespace {

// {kernel, loops (the untuned nest when left out), annotations, min_seconds} ->
// {kernel, micro_kernel, model_gflops, gflops, median_gflops, runs}.
std::string measure_json(const std::string& request_json) {
  std::string out;
  guarded([&] {
    ConfigReader request(parse(request_json), "looptune.measure request");
    const auto problem = looptune::problem_from_spec(request.string("kernel", "matmul:128x192x64"));
    const nlohmann::json* loops = request.raw("loops");
    const looptune::LoopNest nest =
        loops ? looptune::loops_from_json(problem, *loops, "looptune.measure request: 'loops'")
              : looptune::LoopNest::initial(problem);
    const bool annotations = request.boolean("annotations", false);
    const double min_seconds = request.number("min_seconds", 0.01, 0.001, 60);
    request.finish();
    looptune::Measurer measurer(min_seconds);
    const looptune::Measurement m = measurer.measure(nest, annotations);
    out = nlohmann::json{{"kernel", problem->name},
                         {"micro_kernel", kernel_name(pick_kernel(nest, annotations))},
                         {"model_gflops", looptune::CostModel{}.gflops(nest, annotations)},
                         {"gflops", m.best_gflops},
                         {"median_gflops", m.median_gflops},
                         {"runs", m.runs}}
              .dump();
  });
  return out;
}

// The executor's peak in this engine (peak_nest measured), or -1 after an error.
double peak_gflops() {
  double out = -1;
  guarded([&] { out = looptune::probe_peak_gflops(); });
  return out;
}

std::string executor_bench_json(double min_seconds) {
  std::string out;
  guarded([&] { out = looptune::executor_bench(min_seconds).dump(); });
  return out;
}

}  // namespace
}  // namespace sysgym::wasm

EMSCRIPTEN_BINDINGS(sysgym_looptune) {
  using namespace emscripten;
  using namespace sysgym::wasm;
  function("looptuneMeasure", &measure_json);
  function("looptuneExecutorBench", &executor_bench_json);
  function("looptunePeak", &peak_gflops);
}
