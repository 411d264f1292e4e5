#include "tensorplace/reports.hpp"

#include <algorithm>

#include "base/append_format.hpp"
#include "base/quote.hpp"
#include "base/units.hpp"
#include "tensorplace/plan_json.hpp"
#include "tensorplace/simulator.hpp"
#include "tensorplace/sweep.hpp"
#include "tensorplace/zoo/zoo.hpp"

namespace sysgym::tensorplace {

nlohmann::json graph_summary(const Graph& graph) {
  const std::vector<std::uint64_t> live = graph.live_bytes();
  const auto peak =
      static_cast<std::uint32_t>(std::max_element(live.begin(), live.end()) - live.begin());
  std::uint64_t largest = 0;
  std::uint32_t largest_kernel = 0;
  double forward_flops = 0;
  for (std::uint32_t k = 0; k < graph.kernels().size(); ++k) {
    if (const std::uint64_t ws = graph.working_set_bytes(k); ws > largest) {
      largest = ws;
      largest_kernel = k;
    }
    const std::string& op = graph.kernel(k).op;
    forward_flops += (op == "conv" || op == "fc") ? graph.kernel(k).flops : 0;
  }
  nlohmann::json tensors = nlohmann::json::object();
  for (Role role : {Role::kIntermediate, Role::kParameter, Role::kConstant, Role::kIo}) {
    const auto count = std::count_if(graph.tensors().begin(), graph.tensors().end(),
                                     [role](const Tensor& t) { return t.role == role; });
    tensors[role_name(role)] = count;
  }
  return {{"model", graph.model()},
          {"batch", graph.batch()},
          {"kernels", graph.kernels().size()},
          {"tensors", tensors},
          {"parameter_bytes", graph.bytes_of(Role::kParameter)},
          {"peak_live_bytes", live[peak]},
          {"peak_kernel", graph.kernel(peak).name},
          {"largest_working_set_bytes", largest},
          {"largest_working_set_kernel", graph.kernel(largest_kernel).name},
          {"forward_conv_fc_flops", forward_flops},
          {"total_flops", graph.total_flops()}};
}

std::string graph_summary_text(const nlohmann::json& s) {
  std::string out;
  append_format(out, "%s at batch %u: %zu kernels, %zu tensors (%zu intermediate, %zu parameter)\n",
                printable(s["model"].get<std::string>()).c_str(), s["batch"].get<unsigned>(),
                s["kernels"].get<std::size_t>(),
                s["tensors"]["intermediate"].get<std::size_t>() +
                    s["tensors"]["parameter"].get<std::size_t>() +
                    s["tensors"]["constant"].get<std::size_t>() +
                    s["tensors"]["io"].get<std::size_t>(),
                s["tensors"]["intermediate"].get<std::size_t>(),
                s["tensors"]["parameter"].get<std::size_t>());
  append_format(out, "  parameters %s, peak live %s at %s\n",
                format_bytes(s["parameter_bytes"].get<std::uint64_t>()).c_str(),
                format_bytes(s["peak_live_bytes"].get<std::uint64_t>()).c_str(),
                s["peak_kernel"].get<std::string>().c_str());
  append_format(out, "  largest kernel working set %s at %s\n",
                format_bytes(s["largest_working_set_bytes"].get<std::uint64_t>()).c_str(),
                s["largest_working_set_kernel"].get<std::string>().c_str());
  append_format(out, "  %.4g GFLOP forward (conv, fc), %.4g GFLOP in all\n",
                s["forward_conv_fc_flops"].get<double>() / 1e9,
                s["total_flops"].get<double>() / 1e9);
  return out;
}

nlohmann::json zoo_report(std::uint32_t batch) {
  nlohmann::json out = nlohmann::json::array();
  for (const ZooModel& m : zoo_models()) {
    nlohmann::json row = graph_summary(zoo_graph(m.name, batch));
    row["summary"] = m.summary;
    row["parameters"] = zoo_parameters(m.name);
    out.push_back(std::move(row));
  }
  return out;
}

std::string zoo_text(const nlohmann::json& report) {
  std::string out;
  append_format(out, "%-13s %8s %7s %12s %12s %10s  %s\n", "model", "kernels", "params",
                "param bytes", "peak live", "GFLOP/it", "summary");
  for (const nlohmann::json& r : report) {
    append_format(out, "%-13s %8zu %6.1fM %12s %12s %10.1f  %s\n",
                  printable(r["model"].get<std::string>()).c_str(), r["kernels"].get<std::size_t>(),
                  static_cast<double>(r["parameters"].get<std::uint64_t>()) / 1e6,
                  format_bytes(r["parameter_bytes"].get<std::uint64_t>()).c_str(),
                  format_bytes(r["peak_live_bytes"].get<std::uint64_t>()).c_str(),
                  r["total_flops"].get<double>() / 1e9, r["summary"].get<std::string>().c_str());
  }
  if (!report.empty())
    append_format(out,
                  "batch %u; peak live bytes: tensors allocated at once over one iteration "
                  "(4 KiB pages), without recomputation\n",
                  report.front()["batch"].get<unsigned>());
  return out;
}

nlohmann::json ilp_report(const Graph& graph, const Platform& platform, std::uint64_t fast_limit,
                          IlpVariant variant, const IlpSolver& solver, const SolveOptions& options,
                          nlohmann::json* plan, int defrag_rounds) {
  const double ms = 1e3;
  const Plan touch = first_touch(graph, fast_limit);
  const Plan greedy = greedy_plan(graph, platform, fast_limit);
  const double first_touch_ms = simulate(graph, platform, touch, fast_limit).iteration_s * ms;
  const double greedy_ms = simulate(graph, platform, greedy, fast_limit).iteration_s * ms;
  // The variants before this one start it (each is a restriction of the next), so that it is at
  // least as good as they are even when the solver stops at its time limit.
  Plan start = greedy_ms <= first_touch_ms ? greedy : touch;
  std::string start_name = greedy_ms <= first_touch_ms ? "greedy" : "first-touch";
  nlohmann::json steps = nlohmann::json::array();
  IlpOutcome ilp;
  for (int v = 0; v <= static_cast<int>(variant); ++v) {
    const auto step = static_cast<IlpVariant>(v);
    // Each variant before the one asked for may take an equal share of the time limit; the one
    // asked for has the rest (a solver with a deadline, as the CLI's, counts the whole command).
    SolveOptions step_options = options;
    if (step != variant) step_options.time_limit_s /= static_cast<double>(variant) + 1;
    ilp = solve_ilp(graph, platform, fast_limit, step, solver, step_options, start,
                    step == variant ? defrag_rounds : 0);
    steps.push_back({{"variant", variant_name(step)},
                     {"status", ilp.result.status},
                     {"solve_seconds", ilp.result.seconds}});
    if (ilp.replay) {
      steps.back()["iteration_ms"] = ilp.replay->iteration_s * ms;
      start = *ilp.plan;
      start_name = std::string(variant_name(step)) + " ILP";
    }
  }
  // Stopped by the time limit without a plan of its own, the variant's best known plan is the one
  // that started it (each variant allows what the one before it does), reported as such.
  std::string plan_from;
  if (!ilp.replay && ilp.result.status == "time limit") {
    ilp.plan = start;
    ilp.replay = simulate(graph, platform, start, fast_limit);
    ilp.result.objective = ilp.replay->iteration_s * ms;
    plan_from = start_name;
  }
  nlohmann::json out = {{"model", graph.model()},
                        {"batch", graph.batch()},
                        {"variant", variant_name(variant)},
                        {"fast_limit_bytes", fast_limit},
                        {"peak_live_bytes", graph.peak_live_bytes()},
                        {"binaries", ilp.binaries},
                        {"rows", ilp.rows},
                        {"status", ilp.result.status},
                        {"solve_seconds", ilp.result.seconds},
                        {"all_fast_ms", all_fast_seconds(graph, platform) * ms},
                        {"all_slow_ms", all_slow_seconds(graph, platform) * ms},
                        {"first_touch_ms", first_touch_ms},
                        {"greedy_ms", greedy_ms},
                        {"steps", steps}};
  if (!ilp.replay) return out;
  if (!plan_from.empty()) out["plan_from"] = plan_from;
  out["objective_ms"] = ilp.result.objective;
  out["bound_ms"] = ilp.result.bound;
  out["gap"] = ilp.result.gap();
  out["iteration_ms"] = ilp.replay->iteration_s * ms;
  out["peak_fast_bytes"] = ilp.replay->peak_fast_bytes;
  out["fast_heap_bytes"] = ilp.replay->fast_heap_bytes;
  out["heap_fits"] = ilp.replay->fast_heap_bytes <= fast_limit;
  out["defrag_rounds"] = ilp.defrag_rounds;
  out["moves"] = ilp.plan->moves.size();
  out["bytes_to_fast"] = ilp.replay->bytes_to_fast;
  out["bytes_to_slow"] = ilp.replay->bytes_to_slow;
  out["slowdown"] = ilp.replay->iteration_s * ms / out["all_fast_ms"].get<double>();
  if (plan != nullptr) {
    *plan = plan_to_json(graph, *ilp.plan,
                         {{"fast_limit_bytes", fast_limit},
                          {"variant", variant_name(variant)},
                          {"status", ilp.result.status},
                          {"platform", platform.name},
                          {"iteration_ms", ilp.replay->iteration_s * ms}});
  }
  return out;
}

std::string ilp_text(const nlohmann::json& r) {
  std::string out;
  append_format(out, "%s at batch %u, %s ILP, fast memory %s of %s peak: %zu binaries, %zu rows\n",
                printable(r["model"].get<std::string>()).c_str(), r["batch"].get<unsigned>(),
                r["variant"].get<std::string>().c_str(),
                format_bytes(r["fast_limit_bytes"].get<std::uint64_t>()).c_str(),
                format_bytes(r["peak_live_bytes"].get<std::uint64_t>()).c_str(),
                r["binaries"].get<std::size_t>(), r["rows"].get<std::size_t>());
  for (const nlohmann::json& step : r["steps"]) {
    if (step["variant"] == r["variant"]) break;
    append_format(out, "  %s ILP first (its plan starts the next): %s in %.2f s, ",
                  step["variant"].get<std::string>().c_str(),
                  step["status"].get<std::string>().c_str(), step["solve_seconds"].get<double>());
    if (step.contains("iteration_ms")) {
      append_format(out, "%.6g ms\n", step["iteration_ms"].get<double>());
    } else {
      out += "no plan\n";
    }
  }
  append_format(out, "  solver: %s in %.2f s", r["status"].get<std::string>().c_str(),
                r["solve_seconds"].get<double>());
  if (r.contains("plan_from")) {
    append_format(out, " before a plan of its own: the plan kept is the %s one that started it",
                  r["plan_from"].get<std::string>().c_str());
  }
  if (r.contains("objective_ms")) {
    append_format(out, ", objective %.6g ms, bound %.6g ms (gap %.3g%%)\n",
                  r["objective_ms"].get<double>(), r["bound_ms"].get<double>(),
                  100 * r["gap"].get<double>());
    const std::string name = "ilp-" + r["variant"].get<std::string>();
    append_format(
        out,
        "  %-14s %12.3f ms  slowdown %.3f (replayed; peak fast %s; %zu moves, %s in, %s out)\n",
        name.c_str(), r["iteration_ms"].get<double>(), r["slowdown"].get<double>(),
        format_bytes(r["peak_fast_bytes"].get<std::uint64_t>()).c_str(),
        r["moves"].get<std::size_t>(),
        format_bytes(r["bytes_to_fast"].get<std::uint64_t>()).c_str(),
        format_bytes(r["bytes_to_slow"].get<std::uint64_t>()).c_str());
    const auto heap = r["fast_heap_bytes"].get<std::uint64_t>();
    const auto peak = r["peak_fast_bytes"].get<std::uint64_t>();
    append_format(
        out,
        "  a best-fit heap of the fast pool reaches %s (fragmentation %.1f%% over the "
        "peak)\n",
        format_bytes(heap).c_str(),
        peak > 0 ? 100.0 * static_cast<double>(heap - peak) / static_cast<double>(peak) : 0.0);
    const int rounds = r.value("defrag_rounds", 0);
    const bool fits = r.value("heap_fits", true);
    std::string line = fits ? "  the heap fits the limit" : "  the heap overflows the limit";
    if (rounds > 0)
      append_format(line, " after %d defragmentation round%s", rounds, rounds > 1 ? "s" : "");
    else if (!fits)
      line += " (--defrag N solves again with the limit lowered where it overflows)";
    if (!fits || rounds > 0) out += line + "\n";
  } else {
    out += ": no solution\n";
  }
  const double fast = r["all_fast_ms"].get<double>();
  for (const char* key : {"greedy_ms", "first_touch_ms", "all_slow_ms", "all_fast_ms"}) {
    const std::string name = std::string(key).substr(0, std::string(key).size() - 3);
    append_format(out, "  %-14s %12.3f ms  slowdown %.3f\n", name.c_str(), r[key].get<double>(),
                  r[key].get<double>() / fast);
  }
  return out;
}

}  // namespace sysgym::tensorplace
