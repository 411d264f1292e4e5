#include "tensorplace/simulator.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "tensorplace/graph_json.hpp"
#include "tensorplace/zoo/zoo.hpp"

namespace sysgym::tensorplace {
namespace {

// w (parameter, 8 KiB) is read by k0 and k2; a (8 KiB) is produced by k0 and read by k2; b by k1.
Graph three_kernels() {
  return graph_from_json(nlohmann::json::parse(R"({
    "format": "sysgym-tensorplace-graph", "version": 1,
    "tensors": [{"name": "w", "bytes": 8192, "role": "parameter"}, {"name": "a", "bytes": 8192},
                {"name": "b", "bytes": 4096}, {"name": "c", "bytes": 4096}],
    "kernels": [{"name": "k0", "inputs": ["w"], "outputs": ["a"], "flops": 0},
                {"name": "k1", "inputs": [], "outputs": ["b"], "flops": 1e6},
                {"name": "k2", "inputs": ["w", "a", "b"], "outputs": ["c"], "flops": 0}]})"),
                         "three");
}

std::string plan_error(const Graph& g, const Plan& plan, std::uint64_t limit = 1 << 30) {
  try {
    simulate(g, platform_named("optane"), plan, limit);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(TensorSimulator, AllFastIsTheSumOfTheKernelsAllFastTimes) {
  for (const char* model : {"vgg19", "resnet50", "inception_v4"}) {
    const Graph g = zoo_graph(model, 16);
    const Platform p = platform_named("optane");
    double sum = 0;
    for (std::uint32_t k = 0; k < g.kernels().size(); ++k)
      sum += kernel_time(g, k, 0U, p);
    const Simulation fast = simulate(g, p, all_in(g, kFast), g.peak_live_bytes());
    EXPECT_DOUBLE_EQ(fast.iteration_s, sum) << model;
    EXPECT_EQ(fast.peak_fast_bytes, g.peak_live_bytes());
    const Simulation slow = simulate(g, p, all_in(g, kSlow), 0);
    EXPECT_GT(slow.iteration_s, fast.iteration_s) << model;
    EXPECT_EQ(slow.peak_fast_bytes, 0u);
  }
}

TEST(TensorSimulator, FirstTouchKeepsTheLimitAndLiesBetweenTheBounds) {
  const Graph g = zoo_graph("resnet50", 32);
  const Platform p = platform_named("optane");
  const double fast = simulate(g, p, all_in(g, kFast), g.peak_live_bytes()).iteration_s;
  const double slow = simulate(g, p, all_in(g, kSlow), 0).iteration_s;
  double previous = slow;
  for (double share : {0.1, 0.25, 0.5, 0.75, 1.0}) {
    const auto limit = static_cast<std::uint64_t>(share * static_cast<double>(g.peak_live_bytes()));
    const Simulation s = simulate(g, p, first_touch(g, limit), limit);
    EXPECT_LE(s.peak_fast_bytes, limit);
    EXPECT_LE(s.iteration_s, previous * (1 + 1e-12)) << share;  // more fast memory never hurts
    EXPECT_GE(s.iteration_s, fast * (1 - 1e-12));
    previous = s.iteration_s;
  }
  EXPECT_DOUBLE_EQ(previous, fast);
}

TEST(TensorSimulator, MovesCostTheirBytesAndACleanSlowCopyIsFree) {
  const Graph g = three_kernels();
  const Platform p = platform_named("optane");
  Plan plan = all_in(g, kSlow);
  // w to fast before k2 (a copy), a to fast during k1 (overlapped), a back after: free? No, a was
  // written in slow memory, so its slow copy is clean and the move back costs nothing.
  plan.moves = {{2, 0, kFast, false}, {1, 1, kFast, true}};
  const Simulation s = simulate(g, p, plan, 1 << 20);
  EXPECT_DOUBLE_EQ(s.kernels[2].sync_s, 8192 / p.sync_to_fast);
  EXPECT_DOUBLE_EQ(s.kernels[1].async_s, 8192 / p.async_to_fast);
  EXPECT_EQ(s.kernels[1].fast_bytes, 8192u);  // a's fast space, in flight
  EXPECT_EQ(s.kernels[2].fast_bytes, 16384u);
  // w is a parameter: back to slow after the iteration, free because its slow copy is clean.
  EXPECT_EQ(s.bytes_to_slow, 0u);
  EXPECT_EQ(s.bytes_to_fast, 16384u);
  EXPECT_DOUBLE_EQ(s.iteration_s, s.kernels[0].kernel_s +
                                      std::max(s.kernels[1].kernel_s, s.kernels[1].async_s) +
                                      s.kernels[2].sync_s + s.kernels[2].kernel_s);
  // Written in fast memory, a tensor's slow copy is stale: moving it out costs a write.
  Plan dirty = all_in(g, kFast);
  dirty.moves = {{1, 1, kSlow, false}};
  const Simulation d = simulate(g, p, dirty, 1 << 20);
  EXPECT_DOUBLE_EQ(d.kernels[1].sync_s, 8192 / p.sync_to_slow);
  EXPECT_EQ(d.bytes_to_slow, 8192u);
}

TEST(TensorSimulator, PlansThatCannotRunAreNamedErrors) {
  const Graph g = three_kernels();
  Plan plan = all_in(g, kFast);
  EXPECT_EQ(
      plan_error(g, plan, 16384),
      "the plan needs 20.0 KiB of fast memory at kernel 'k1' (#1), over the limit of 16.0 KiB");
  plan.moves = {{0, 1, kSlow, false}};
  EXPECT_EQ(plan_error(g, plan), "a move of tensor 'a' at kernel 'k0' (#0), outside its lifetime");
  plan.moves = {{2, 1, kFast, false}};
  EXPECT_EQ(plan_error(g, plan),
            "a move of tensor 'a' to fast memory at kernel 'k2' (#2): it is already there");
  plan.moves = {{9, 1, kFast, false}};
  EXPECT_NE(plan_error(g, plan).find("outside the graph"), std::string::npos);
  plan.initial.pop_back();
  EXPECT_EQ(plan_error(g, plan), "the plan places 3 tensors; the graph has 4");
  const Graph deep = zoo_graph("vgg19", 1);
  Plan far = all_in(deep, kSlow);
  std::uint32_t w = 0;
  while (deep.tensor(w).name != "conv1_1.w")
    ++w;
  far.moves = {{40, w, kFast, true}};  // its users: the first kernel, its backward and update
  EXPECT_NE(plan_error(deep, far).find("more than 15 kernels from every user"), std::string::npos);
}

TEST(TensorSimulator, PlatformsAreNamedOrOverridden) {
  const Platform p = platform_from_json(
      nlohmann::json::parse(R"({"name": "gpu", "peak_flops": 1e12})"), "platform");
  EXPECT_EQ(p.name, "gpu");
  EXPECT_EQ(p.peak_flops, 1e12);
  EXPECT_EQ(p.slow_read, 12e9);
  EXPECT_THROW(platform_from_json(nlohmann::json::parse(R"({"fast_reed": 1})"), "platform"),
               ConfigError);
  EXPECT_THROW(platform_from_json(nlohmann::json::parse(R"({"slow_read": 0})"), "platform"),
               ConfigError);
  EXPECT_THROW(platform_named("tpu"), UnknownNameError);
  // A measured time table wins over the roofline.
  const Graph g = graph_from_json(nlohmann::json::parse(R"({
    "format": "sysgym-tensorplace-graph", "version": 1,
    "tensors": [{"name": "x", "bytes": 4096, "role": "io"}, {"name": "y", "bytes": 4096}],
    "kernels": [{"name": "k", "inputs": ["x"], "outputs": ["y"], "times": [1, 2, 3, 5]}]})"),
                                  "t");
  EXPECT_EQ(kernel_time(g, 0, 3U, p), 5);
  EXPECT_EQ(simulate(g, p, all_in(g, kSlow), 0).iteration_s, 5);
}

// a and b take a page each; a dies and c (two pages) is born: three pages live, but c does not
// fit a's one-page hole, so the best-fit heap reaches four. d then fills the freed pages.
TEST(TensorSimulator, TheFastHeapCountsFragmentation) {
  const Graph g = graph_from_json(nlohmann::json::parse(R"({
    "format": "sysgym-tensorplace-graph", "version": 1,
    "tensors": [{"name": "a", "bytes": 4096}, {"name": "b", "bytes": 4096},
                {"name": "c", "bytes": 8192}, {"name": "d", "bytes": 4096}],
    "kernels": [{"name": "k0", "inputs": [], "outputs": ["a"], "flops": 0},
                {"name": "k1", "inputs": ["a"], "outputs": ["b"], "flops": 0},
                {"name": "k2", "inputs": ["b"], "outputs": ["c"], "flops": 0},
                {"name": "k3", "inputs": ["c"], "outputs": ["d"], "flops": 0}]})"),
                                  "holes");
  const Simulation s = simulate(g, platform_named("optane"), all_in(g, kFast), 1 << 20);
  EXPECT_EQ(s.peak_fast_bytes, 3 * 4096u);
  EXPECT_EQ(s.fast_heap_bytes, 4 * 4096u);
}

}  // namespace
}  // namespace sysgym::tensorplace
