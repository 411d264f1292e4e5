// tensorplace graph files (`sysgym tensorplace graph -o`, the env's `graph` key): every field's
// checks, then what reads a loaded graph (its summary, live bytes, the all-fast, all-slow and
// first-touch simulations).
#include "fuzz_support.hpp"
#include "tensorplace/graph_json.hpp"
#include "tensorplace/platform.hpp"
#include "tensorplace/reports.hpp"
#include "tensorplace/simulator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym::tensorplace;
  return sysgym::fuzz::expecting_errors([&] {
    const Graph graph = graph_from_json(nlohmann::json::parse(sysgym::fuzz::text(data, size)), "fuzz");
    (void)graph_summary(graph);
    const Platform platform = platform_named(platform_names().front());
    (void)all_fast_seconds(graph, platform);
    (void)all_slow_seconds(graph, platform);
    const std::uint64_t half = graph.peak_live_bytes() / 2;
    (void)simulate(graph, platform, first_touch(graph, half), half);
  });
}
