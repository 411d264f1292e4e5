// tensorplace's extras in the npm package: the zoo, graphs, and AutoTM's ILP solved by a JS
// solver (the package passes HiGHS's; any function taking LP text will do) through the same core
// reports as `sysgym tensorplace zoo|graph|ilp|sweep` natively.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>

#include "../runtime.hpp"

#include "base/json_text.hpp"
#include "env/config_reader.hpp"
#include "tensorplace/graph_json.hpp"
#include "tensorplace/reports.hpp"
#include "tensorplace/sweep.hpp"
#include "tensorplace/tensorplace_config.hpp"
#include "tensorplace/zoo/zoo.hpp"

namespace sysgym::wasm {
namespace {

// {model, batch} or {graph: JSON text}.
tensorplace::Graph graph_of(ConfigReader& request) {
  if (const nlohmann::json* graph = request.raw("graph")) {
    if (!graph->is_string()) request.fail("graph", "must be graph JSON text");
    return tensorplace::graph_from_json(parse_json_text(graph->get<std::string>(), "graph"),
                                        "graph");
  }
  const std::string model = request.string("model", "resnet50");
  return tensorplace::zoo_graph(
      model, static_cast<std::uint32_t>(request.integer("batch", 32, 1, 1 << 20)));
}

tensorplace::Platform platform_of(ConfigReader& request) {
  const nlohmann::json* platform = request.raw("platform");
  return tensorplace::platform_from_json(platform ? *platform : nlohmann::json("optane"),
                                         "platform");
}

// time_limit covers the whole call, as --time-limit does natively: loading, building the models,
// every solve, each given no more than what is left. A sweep's solve_time_limit holds each solve
// (--solve-time-limit); its time_limit is optional. Read first: the time counts from here.
tensorplace::SolveOptions options_of(ConfigReader& request, bool sweep) {
  tensorplace::SolveOptions options;
  options.relative_gap = request.number("gap", 1e-4, 0, 1);
  if (sweep) options.time_limit_s = request.number("solve_time_limit", 60.0, 0.01, 1e6);
  if (sweep && request.raw("time_limit") == nullptr) return options;
  const double seconds = request.number("time_limit", 60.0, 0.01, 1e6);
  if (!sweep) options.time_limit_s = seconds;
  options.count_down_to(tensorplace::deadline_after(seconds));
  return options;
}

std::uint64_t fast_limit_of(ConfigReader& request, const tensorplace::Graph& graph) {
  const nlohmann::json* given = request.raw("fast_memory");
  return tensorplace::parse_fast_memory(given ? *given : nlohmann::json("50%"),
                                        graph.peak_live_bytes(), "fast_memory");
}

// The JS solver: solver(lp, {time_limit, gap, start}) -> {status, objective, bound, seconds,
// values} (wasm/js/tensorplace.mjs adapts HiGHS to it); its errors come back as {error}.
tensorplace::IlpSolver js_solver(emscripten::val solver) {
  return [solver](const std::string& lp, const tensorplace::SolveOptions& options) {
    const nlohmann::json given = {{"time_limit", std::max(options.seconds_for_a_solve(), 0.01)},
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
    ConfigReader request(parse(request_json), "tensorplace.graph request");
    const tensorplace::Graph graph = graph_of(request);
    request.finish();
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
    ConfigReader request(parse(request_json), "tensorplace.ilp request");
    const tensorplace::SolveOptions options = options_of(request, false);
    const tensorplace::Graph graph = graph_of(request);
    const std::uint64_t limit = fast_limit_of(request, graph);
    const tensorplace::Platform platform = platform_of(request);
    const tensorplace::IlpVariant variant = tensorplace::parse_variant(
        request.choice("variant", "static", tensorplace::variant_names()));
    const bool with_plan = request.boolean("with_plan", false);
    const auto defrag = static_cast<int>(request.integer("defrag", 0, 0, 100));
    request.finish();
    nlohmann::json plan;
    nlohmann::json report = tensorplace::ilp_report(graph, platform, limit, variant,
                                                    js_solver(solver), options, &plan, defrag);
    if (with_plan) report["plan"] = plan;
    out = json ? report.dump(2) : tensorplace::ilp_text(report);
  });
  return out;
}

std::string sweep_json(const std::string& request_json, emscripten::val solver, bool json) {
  std::string out;
  guarded([&] {
    ConfigReader request(parse(request_json), "tensorplace.sweep request");
    const tensorplace::SolveOptions options = options_of(request, true);
    const tensorplace::Graph graph = graph_of(request);
    const tensorplace::Platform platform = platform_of(request);
    const auto list = [&](std::string_view key, std::vector<std::string> fallback) {
      const nlohmann::json* given = request.raw(key);
      if (given == nullptr) return fallback;
      if (!given->is_array() ||
          !std::all_of(given->begin(), given->end(), [](const auto& v) { return v.is_string(); }))
        request.fail(key, "must be a list of strings");
      return given->get<std::vector<std::string>>();
    };
    const std::vector<std::string> ratios = list("ratios", {"0", "1:4", "1:1", "4:1"});
    const std::vector<std::string> optimizers =
        list("optimizers", tensorplace::default_sweep_optimizers());
    request.finish();
    const nlohmann::json report =
        tensorplace::sweep_report(graph, platform, ratios, optimizers, js_solver(solver), options);
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
