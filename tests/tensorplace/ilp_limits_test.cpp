// The ILP's bounds: a model too large to build is refused before its fast-memory rows are written,
// and a deadline with nothing left builds no model and keeps the plan that would have started it.
#include <gtest/gtest.h>

#include "base/error.hpp"
#include "tensorplace/ilp.hpp"
#include "tensorplace/reports.hpp"
#include "tensorplace/zoo/builder.hpp"
#include "tensorplace/zoo/zoo.hpp"

namespace sysgym::tensorplace {
namespace {

// Kernel i reads intermediate i-1 and its own persistent weight: every weight may be fast at
// every kernel, so the fast-memory rows grow with the square of the kernels.
Graph chain_with_weights(std::uint32_t kernels) {
  std::vector<Tensor> tensors = {{"in", 1 << 20, Role::kIo}};
  std::vector<Kernel> ks;
  std::uint32_t previous = 0;
  for (std::uint32_t k = 0; k < kernels; ++k) {
    const auto weight = static_cast<std::uint32_t>(tensors.size());
    tensors.push_back({layer_name("w", k), 1 << 18, Role::kParameter});
    tensors.push_back({layer_name("a", k), 1 << 20});
    ks.push_back({layer_name("k", k), "conv", {previous, weight}, {weight + 1}, 1e8, {}});
    previous = weight + 1;
  }
  return Graph("chain", 1, std::move(tensors), std::move(ks));
}

TEST(IlpLimits, AModelOverTheTermLimitIsRefusedNamingItsSize) {
  const Graph graph = chain_with_weights(5000);  // 5,000 weights at 5,000 kernels: 25 million
  const Platform platform = platform_named("optane");
  try {
    build_ilp(graph, platform, graph.peak_live_bytes() / 4, IlpVariant::kStatic);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("the ILP of 'chain' would need"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("more than the 20000000 a solve can take"),
              std::string::npos)
        << e.what();
  }
  const Graph small = chain_with_weights(500);
  EXPECT_NO_THROW(build_ilp(small, platform, small.peak_live_bytes() / 4, IlpVariant::kStatic));
}

TEST(IlpLimits, WithNoTimeLeftNoModelIsBuiltAndTheStartingPlanIsKept) {
  const Graph graph = zoo_graph("vgg19", 4);
  const std::uint64_t limit = graph.peak_live_bytes() / 2;
  SolveOptions options;
  options.seconds_left = [] { return 0.0; };
  const IlpSolver never = [](const std::string&, const SolveOptions&) -> SolveResult {
    ADD_FAILURE() << "a model was built and solved with no time left";
    return {};
  };
  nlohmann::json plan;
  const nlohmann::json report = ilp_report(graph, platform_named("optane"), limit,
                                           IlpVariant::kAsync, never, options, &plan, 2);
  EXPECT_EQ(report["status"], "time limit");
  ASSERT_TRUE(report.contains("plan_from")) << report.dump();
  const double kept = report["plan_from"] == "greedy" ? report["greedy_ms"].get<double>()
                                                      : report["first_touch_ms"].get<double>();
  EXPECT_DOUBLE_EQ(report["iteration_ms"].get<double>(), kept);
  EXPECT_EQ(report["steps"].size(), 3u);
  EXPECT_FALSE(plan.is_null());
  EXPECT_NE(ilp_text(report).find("the plan kept is the"), std::string::npos) << ilp_text(report);
}

}  // namespace
}  // namespace sysgym::tensorplace
