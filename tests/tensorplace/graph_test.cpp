#include "tensorplace/graph.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"
#include "tensorplace/graph_json.hpp"

namespace sysgym::tensorplace {
namespace {

// x (io) -> k0 -> a -> k1 -> b; k2 reads a and b: a lives from k0 to k2, b from k1 to k2.
nlohmann::json small_graph() {
  return nlohmann::json::parse(R"({
    "format": "sysgym-tensorplace-graph", "version": 1, "model": "small", "batch": 2,
    "tensors": [
      {"name": "x", "bytes": 100, "role": "io"},
      {"name": "w", "bytes": 5000, "role": "parameter", "pools": ["slow"]},
      {"name": "a", "bytes": 8192},
      {"name": "b", "bytes": 4096},
      {"name": "c", "bytes": 1}
    ],
    "kernels": [
      {"name": "k0", "op": "conv", "inputs": ["x", "w"], "outputs": ["a"], "flops": 10},
      {"name": "k1", "inputs": ["a"], "outputs": ["b"], "times": [1, 2, 3, 4]},
      {"name": "k2", "inputs": ["a", "b"], "outputs": ["c"], "flops": 0}
    ]})");
}

std::string graph_error(const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json j = small_graph();
  edit(j);
  try {
    graph_from_json(j, "g.json");
  } catch (const Error& e) {
    return std::string(e.kind()) + ": " + e.what();
  }
  return "accepted";
}

TEST(TensorGraph, LifetimesAndLiveBytesFollowTheKernelOrder) {
  const Graph g = graph_from_json(small_graph(), "g.json");
  EXPECT_EQ(g.tensor(1).allocated_bytes(), 8192u);  // 5000 rounded up to pages
  EXPECT_EQ(g.tensor(4).allocated_bytes(), 4096u);
  EXPECT_EQ(g.lifetime(2).first, 0u);
  EXPECT_EQ(g.lifetime(2).last, 2u);
  EXPECT_EQ(g.lifetime(3).first, 1u);
  EXPECT_EQ(g.lifetime(0).last, 2u);  // io and parameters live across iterations
  EXPECT_FALSE(g.tensor(1).fast_allowed);
  // x 4 KiB + w 8 KiB + a 8 KiB at k0; + b at k1; + c at k2.
  EXPECT_EQ(g.live_bytes(), (std::vector<std::uint64_t>{20480, 24576, 28672}));
  EXPECT_EQ(g.peak_live_bytes(), 28672u);
  EXPECT_EQ(g.working_set_bytes(2), 16384u);
  EXPECT_EQ(g.users(2), (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(g.bytes_of(Role::kParameter), 5000u);
}

TEST(TensorGraph, JsonRoundTripsUnchanged) {
  const nlohmann::json once = graph_to_json(graph_from_json(small_graph(), "g.json"));
  EXPECT_EQ(graph_to_json(graph_from_json(once, "again")), once);
  EXPECT_EQ(once["kernels"][1]["times"], nlohmann::json({1, 2, 3, 4}));
}

TEST(TensorGraph, MalformedGraphsAreNamedErrors) {
  EXPECT_EQ(graph_error([](auto& j) { j["kernels"][1]["inputs"] = {"c"}; }),
            "ConfigError: g.json: kernel 'k1' (#1) reads intermediate 'c' before any kernel "
            "produces it: kernels must be listed in execution order, and the graph may not have "
            "a cycle");
  EXPECT_EQ(graph_error([](auto& j) {
              j["kernels"][0]["inputs"] = {"x", "y"};
            }),
            "ConfigError: graph kernel 'k0': 'inputs' names unknown tensor 'y' (not in "
            "\"tensors\")");
  EXPECT_EQ(graph_error([](auto& j) { j["kernels"][2].erase("flops"); }),
            "ConfigError: graph kernel 'k2' has no time: give \"flops\" (timed by the roofline "
            "model) or \"times\" (seconds per placement of its operands)");
  EXPECT_NE(graph_error([](auto& j) { j["tensors"][2]["bytes"] = -8; }).find("'bytes'"),
            std::string::npos);
  EXPECT_NE(
      graph_error([](auto& j) { j["tensors"][3]["name"] = "a"; }).find("'a' is defined twice"),
      std::string::npos);
  EXPECT_NE(graph_error([](auto& j) {
              j["kernels"][1]["times"] = {1, 2};
            }).find("its time table has 2 entries, 4 expected"),
            std::string::npos);
  EXPECT_NE(graph_error([](auto& j) {
              j["kernels"][2]["outputs"] = {"b"};
            }).find("writes intermediate 'b', already produced by kernel 'k1' (#1)"),
            std::string::npos);
  EXPECT_NE(
      graph_error([](auto& j) { j["tensors"][0]["role"] = "weights"; }).find("UnknownNameError"),
      std::string::npos);
  EXPECT_NE(graph_error([](auto& j) {
              j["tensors"][1]["pools"] = nlohmann::json::array();
            }).find("may live in no pool"),
            std::string::npos);
  EXPECT_NE(graph_error([](auto& j) { j["version"] = 2; }).find("this sysgym reads version 1"),
            std::string::npos);
  EXPECT_NE(graph_error([](auto& j) { j["kernels"][0]["flop"] = 1; }).find("'flop'"),
            std::string::npos);
  EXPECT_NE(graph_error([](auto& j) {
              j["tensors"][1]["role"] = "constant";
              j["kernels"][0]["outputs"] = {"a", "w"};
            }).find("writes constant 'w'"),
            std::string::npos);
}

}  // namespace
}  // namespace sysgym::tensorplace
