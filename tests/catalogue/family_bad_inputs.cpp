// The catalogue's rows for tensorplace graph and plan files, looptune problems and training state
// files: each damaged one way and fed to the core's reader (the CLI, the npm package and the
// playground meet them there).
#include <nlohmann/json.hpp>

#include "agents/training_files.hpp"
#include "base/data_store.hpp"
#include "catalogue/bad_inputs.hpp"
#include "looptune/looptune_env.hpp"
#include "looptune/problems.hpp"
#include "tensorplace/graph_json.hpp"
#include "tensorplace/plan_json.hpp"

namespace sysgym::catalogue {
namespace {

using nlohmann::json;

// x (io) -> k0 -> a -> k1 -> b, with a parameter w: the smallest graph with every kind of tensor.
json graph_file() {
  return json::parse(R"({
    "format": "sysgym-tensorplace-graph", "version": 1, "model": "mine", "batch": 2,
    "tensors": [
      {"name": "x", "bytes": 100, "role": "io"},
      {"name": "w", "bytes": 5000, "role": "parameter"},
      {"name": "a", "bytes": 8192},
      {"name": "b", "bytes": 4096}
    ],
    "kernels": [
      {"name": "k0", "op": "conv", "inputs": ["x", "w"], "outputs": ["a"], "flops": 10},
      {"name": "k1", "inputs": ["a"], "outputs": ["b"], "times": [1, 2, 3, 4]}
    ]})");
}

void read_graph(const json& j) {
  tensorplace::graph_from_json(j, "mine.json");
}

json plan_file() {
  return {{"format", "sysgym-tensorplace-plan"},
          {"version", 1},
          {"model", "mine"},
          {"batch", 2},
          {"tensors", 4},
          {"slow", json::array({"w"})},
          {"moves", json::array()}};
}

void read_plan(const json& j) {
  tensorplace::plan_from_json(j, tensorplace::graph_from_json(graph_file(), "mine.json"),
                              "plan.json");
}

json problem_file() {
  return json::parse(R"({
    "format": "sysgym-looptune-problem", "version": 1, "name": "mine",
    "vars": [{"name": "m", "size": 64}, {"name": "n", "size": 48}, {"name": "k", "size": 32}],
    "a": {"name": "A", "dims": [["m"], ["k"]]},
    "b": {"name": "B", "dims": [["k"], ["n"]]},
    "out": {"name": "C", "dims": [["m"], ["n"]]}})");
}

void read_problem(const json& j) {
  looptune::problem_from_json(j, "mine.json");
}

void read_state(const std::vector<std::uint8_t>& bytes) {
  agents::read_training_state(bytes, "p.json.state");
}

}  // namespace

std::vector<BadInput> family_bad_inputs() {
  return {
      {"tensorplace graph", "another kind of JSON",
       [] {
         read_graph({{"format", "sysgym-tensorplace-plan"}});
       }},
      {"tensorplace graph", "version 2",
       [] { read_graph(edited(graph_file(), "/version"_json_pointer, 2)); }},
      {"tensorplace graph", "a kernel reads a tensor the graph lacks",
       [] { read_graph(edited(graph_file(), "/kernels/1/inputs/0"_json_pointer, "z")); }},
      {"tensorplace graph", "an intermediate read before it is written",
       [] { read_graph(edited(graph_file(), "/kernels/0/inputs/1"_json_pointer, "b")); }},
      {"tensorplace graph", "a kernel with neither flops nor times",
       [] {
         json j = graph_file();
         j["kernels"][0].erase("flops");
         read_graph(j);
       }},
      {"tensorplace graph", "a time table of the wrong size",
       [] {
         read_graph(edited(graph_file(), "/kernels/1/times"_json_pointer, {1, 2, 3}));
       }},
      {"tensorplace graph", "a negative size",
       [] { read_graph(edited(graph_file(), "/tensors/2/bytes"_json_pointer, -8192)); }},
      {"tensorplace graph", "a key it does not know",
       [] { read_graph(edited(graph_file(), "/kernels/0/flop"_json_pointer, 10)); }},
      {"tensorplace plan", "another kind of JSON",
       [] {
         read_plan({{"format", "sysgym-policy"}});
       }},
      {"tensorplace plan", "a plan for another batch",
       [] {
         json j = plan_file();
         j["batch"] = 16;
         read_plan(j);
       }},
      {"tensorplace plan", "a tensor the graph lacks",
       [] {
         json j = plan_file();
         j["slow"] = {"conv1.w"};
         read_plan(j);
       }},
      {"tensorplace plan", "a move to a pool that is not fast or slow",
       [] {
         json j = plan_file();
         j["moves"] = {{{"kernel", "k1"}, {"tensor", "a"}, {"to", "disk"}}};
         read_plan(j);
       }},
      {"looptune problem", "a spec of an unknown kernel",
       [] { looptune::problem_from_spec("matmux:64x64x64"); }},
      {"looptune problem", "a spec with a size of 0",
       [] { looptune::problem_from_spec("matmul:0x64x64"); }},
      {"looptune problem", "a spec with a size over the limit",
       [] { looptune::problem_from_spec("matmul:100000x64x64"); }},
      {"looptune problem", "a dimension over a variable it does not declare",
       [] { read_problem(edited(problem_file(), "/a/dims/1/0"_json_pointer, "q")); }},
      {"looptune problem", "a tensor over 2^26 elements",
       [] {
         json j = edited(problem_file(), "/vars/0/size"_json_pointer, 65536);
         j["vars"][2]["size"] = 65536;
         read_problem(j);
       }},
      {"looptune problem", "no output tensor",
       [] {
         json j = problem_file();
         j.erase("out");
         read_problem(j);
       }},
      {"looptune env config", "reward=measure on a kernel too slow to measure",
       [] {
         looptune::LooptuneEnv({{"kernel", "matmul:8192x8192x8192"}, {"reward", "measure"}},
                               DataStore());
       }},
      {"training state", "not CBOR",
       [] {
         read_state({'{', '"', 'a', '"', ':', ' ', '1', '}'});
       }},
      // The fuzzer's find: 4,800 nested arrays overflowed the stack of the CBOR reader.
      {"training state", "CBOR arrays nested 10,000 deep",
       [] {
         std::vector<std::uint8_t> nested(10'000, 0x81);  // an array of one element, and so on
         nested.push_back(0x00);
         read_state(nested);
       }},
      {"training state", "the CBOR of another kind of file",
       [] {
         read_state(json::to_cbor(json{{"kind", "sysgym-policy"}}));
       }},
  };
}

}  // namespace sysgym::catalogue
