// tensorplace plan files (`sysgym tensorplace ilp --write-plan`, the `plan` policy's config):
// every field's checks against a zoo model, then the plan simulated at the plan's own limit.
#include "fuzz_support.hpp"
#include "tensorplace/plan_json.hpp"
#include "tensorplace/platform.hpp"
#include "tensorplace/zoo/zoo.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym::tensorplace;
  static const Graph graph = zoo_graph("vgg19", 1);
  static const Platform platform = platform_named(platform_names().front());
  return sysgym::fuzz::expecting_errors([&] {
    const nlohmann::json j = nlohmann::json::parse(sysgym::fuzz::text(data, size));
    const Plan plan = plan_from_json(j, graph, "fuzz");
    (void)simulate(graph, platform, plan, graph.peak_live_bytes());
  });
}
