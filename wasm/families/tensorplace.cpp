// tensorplace's extras in the npm package: the zoo, graphs, and AutoTM's ILP solved by a JS
// solver (the package passes HiGHS's; any function taking LP text will do) through the same core
// reports as `sysgym tensorplace zoo|graph|ilp|sweep` natively.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include "../runtime.hpp"

#include "base/json_text.hpp"
#include "tensorplace/graph_json.hpp"
#include "tensorplace/reports.hpp"
#include "tensorplace/sweep.hpp"
#include "tensorplace/tensorplace_config.hpp"
#include "tensorplace/zoo/zoo.hpp"

namespace sysgym::wasm {
namespace {

// {model, batch} or {graph: JSON text}.
tensorplace::Graph graph_of(const nlohmann::json& request) {
  if (request.contains("graph"))
    return tensorplace::graph_from_json(
        parse_json_text(request.at("graph").get<std::string>(), "graph"), "graph");
  return tensorplace::zoo_graph(request.value("model", std::string("resnet50")),
                                request.value("batch", 32U));
}

tensorplace::Platform platform_of(const nlohmann::json& request) {
  return tensorplace::platform_from_json(request.value("platform", nlohmann::json("optane")),
                                         "platform");
}

tensorplace::SolveOptions options_of(const nlohmann::json& request) {
  tensorplace::SolveOptions options;
  options.time_limit_s = request.value("time_limit", 60.0);
  options.relative_gap = request.value("gap", 1e-4);
  return options;
}

// The JS solver: solver(lp, {time_limit, gap, start}) -> {status, objective, bound, seconds,
// values} (wasm/js/tensorplace.mjs adapts HiGHS to it); its errors come back as {error}.
tensorplace::IlpSolver js_solver(emscripten::val solver) {
  return [solver](const std::string& lp, const tensorplace::SolveOptions& options) {
    const nlohmann::json given = {{"time_limit", options.time_limit_s},
                                  {"gap", options.relative_gap},
                                  {"start", options.start}};
    const std::string answer = solver(lp, given.dump()).as<std::string>();
    const nlohmann::json j = parse_json_text(answer, "the ILP solver's answer");
    if (j.contains("error")) throw Error("the ILP solver failed: " + j["error"].get<std::string>());
    tensorplace::SolveResult out;
    out.status = j.at("status").get<std::string>();
    out.has_solution = j.value("has_solution", false);
    out.objective = j.value("objective", 0.0);
    out.bound = j.value("bound", out.objective);
    out.seconds = j.value("seconds", 0.0);
    out.values = j.value("values", std::map<std::string, double>{});
    return out;
  };
}

std::string zoo_json(int batch, bool json) {
  std::string out;
  guarded([&] {
    const nlohmann::json report = tensorplace::zoo_report(static_cast<std::uint32_t>(batch));
    out = json ? report.dump(2) : tensorplace::zoo_text(report);
  });
  return out;
}

// [summary (JSON or text), the graph's JSON text when asked].
std::string graph_json(const std::string& request_json, bool json, bool with_graph) {
  std::string out;
  guarded([&] {
    const tensorplace::Graph graph = graph_of(parse(request_json));
    const nlohmann::json summary = tensorplace::graph_summary(graph);
    out = nlohmann::json::array(
              {json ? summary.dump(2) : tensorplace::graph_summary_text(summary),
               with_graph ? tensorplace::graph_to_json(graph).dump() : std::string()})
              .dump();
  });
  return out;
}

std::string ilp_json(const std::string& request_json, emscripten::val solver, bool json) {
  std::string out;
  guarded([&] {
    const nlohmann::json request = parse(request_json);
    const tensorplace::Graph graph = graph_of(request);
    const std::uint64_t limit =
        tensorplace::parse_fast_memory(request.value("fast_memory", nlohmann::json("50%")),
                                       graph.peak_live_bytes(), "fast_memory");
    const nlohmann::json report = tensorplace::ilp_report(graph, platform_of(request), limit,
                                                          js_solver(solver), options_of(request));
    out = json ? report.dump(2) : tensorplace::ilp_text(report);
  });
  return out;
}

std::string sweep_json(const std::string& request_json, emscripten::val solver, bool json) {
  std::string out;
  guarded([&] {
    const nlohmann::json request = parse(request_json);
    const nlohmann::json report = tensorplace::sweep_report(
        graph_of(request), platform_of(request),
        request.value("ratios", std::vector<std::string>{"0", "1:4", "1:1", "4:1"}),
        request.value("optimizers", tensorplace::sweep_optimizers()), js_solver(solver),
        options_of(request));
    out = json ? report.dump(2) : tensorplace::sweep_text(report);
  });
  return out;
}

}  // namespace
}  // namespace sysgym::wasm

EMSCRIPTEN_BINDINGS(sysgym_tensorplace) {
  using namespace emscripten;
  using namespace sysgym::wasm;
  function("tensorplaceZoo", &zoo_json);
  function("tensorplaceGraph", &graph_json);
  function("tensorplaceIlp", &ilp_json);
  function("tensorplaceSweep", &sweep_json);
}
