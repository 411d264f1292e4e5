#include "tensorplace/sweep.hpp"

#include <algorithm>

#include "base/append_format.hpp"
#include "base/error.hpp"
#include "base/names.hpp"
#include "base/quote.hpp"
#include "base/units.hpp"
#include "tensorplace/tensorplace_config.hpp"
#include "tensorplace/twolm.hpp"

namespace sysgym::tensorplace {
namespace {

// Seconds tensor t saves over its uses by being in fast memory (the memory term of each user).
double fast_benefit(const Graph& g, const Platform& p, std::uint32_t t) {
  double seconds = 0;
  for (std::uint32_t k : g.users(t)) {
    const Kernel& kernel = g.kernel(k);
    for (std::size_t i = 0; i < kernel.operand_count(); ++i) {
      if (kernel.operand(i) != t) continue;
      const auto bytes = static_cast<double>(g.tensor(t).bytes);
      seconds += i < kernel.inputs.size() ? bytes / p.slow_read - bytes / p.fast_read
                                          : bytes / p.slow_write - bytes / p.fast_write;
    }
  }
  return seconds;
}

// The ILP variants run in the order static, sync, async, each started from the best plan found
// so far at this limit (every static plan is a sync plan, every sync plan an async one), so each
// variant is at least as good as the one before even when the solver stops at its time limit.
double run_optimizer(const std::string& name, const Graph& g, const Platform& p,
                     std::uint64_t limit, const IlpSolver& solver, const SolveOptions& options,
                     Plan& best, nlohmann::json& cell) {
  if (name == "all-slow") return all_slow_seconds(g, p);
  if (name == "first-touch") return simulate(g, p, first_touch(g, limit), limit).iteration_s;
  if (name == "greedy") return simulate(g, p, greedy_plan(g, p, limit), limit).iteration_s;
  if (name == "2lm") {
    const TwoLmResult cache = simulate_2lm(g, p, limit);
    cell["hit_share"] = cache.hit_share;
    return cache.iteration_s;
  }
  const IlpOutcome ilp = solve_ilp(g, p, limit, parse_variant(name), solver, options, best);
  cell["status"] = ilp.result.status;
  cell["solve_seconds"] = ilp.result.seconds;
  if (!ilp.replay && ilp.result.status == "time limit") {
    // Stopped before a plan of its own: the plan that started it is the best known (as in ilp).
    cell["plan_kept"] = "the plan that started it";
    return simulate(g, p, best, limit).iteration_s;
  }
  if (!ilp.replay) return -1;
  cell["gap"] = ilp.result.gap();
  best = *ilp.plan;
  return ilp.replay->iteration_s;
}

bool is_ilp(const std::string& optimizer) {
  const std::vector<std::string> variants = variant_names();
  return std::find(variants.begin(), variants.end(), optimizer) != variants.end();
}

// The optimizers in the order they run: heuristics first, then the ILP chain.
std::vector<std::string> run_order(const std::vector<std::string>& optimizers) {
  std::vector<std::string> order;
  for (const std::string& name : sweep_optimizers()) {
    if (std::find(optimizers.begin(), optimizers.end(), name) != optimizers.end())
      order.push_back(name);
  }
  return order;
}

}  // namespace

Plan greedy_plan(const Graph& graph, const Platform& platform, std::uint64_t fast_limit) {
  Plan plan = all_in(graph, kSlow);
  std::vector<std::pair<double, std::uint32_t>> order;
  for (std::uint32_t t = 0; t < graph.tensors().size(); ++t) {
    if (!graph.tensor(t).fast_allowed || !graph.tensor(t).slow_allowed) continue;
    const Lifetime& life = graph.lifetime(t);
    const double footprint = static_cast<double>(graph.tensor(t).allocated_bytes()) *
                             static_cast<double>(life.last - life.first + 1);
    order.emplace_back(fast_benefit(graph, platform, t) / footprint, t);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  // Fast bytes at each kernel: the fast-only tensors first.
  std::vector<std::uint64_t> used(graph.kernels().size(), 0);
  const auto occupy = [&](std::uint32_t t) {
    for (std::uint32_t k = graph.lifetime(t).first; k <= graph.lifetime(t).last; ++k)
      used[k] += graph.tensor(t).allocated_bytes();
  };
  for (std::uint32_t t = 0; t < graph.tensors().size(); ++t) {
    if (plan.initial[t] == kFast) occupy(t);
  }
  for (const auto& [density, t] : order) {
    const Lifetime& life = graph.lifetime(t);
    const std::uint64_t bytes = graph.tensor(t).allocated_bytes();
    const bool fits = std::all_of(used.begin() + life.first, used.begin() + life.last + 1,
                                  [&](std::uint64_t u) { return u + bytes <= fast_limit; });
    if (density <= 0 || !fits) continue;
    plan.initial[t] = kFast;
    occupy(t);
  }
  return plan;
}

const std::vector<std::string>& sweep_optimizers() {
  static const std::vector<std::string> names = {"all-slow", "first-touch", "2lm",  "greedy",
                                                 "static",   "sync",        "async"};
  return names;
}

std::vector<std::string> default_sweep_optimizers() {
  return {"all-slow", "first-touch", "2lm", "greedy", "static", "sync"};
}

nlohmann::json sweep_report(const Graph& graph, const Platform& platform,
                            const std::vector<std::string>& ratios,
                            const std::vector<std::string>& optimizers, const IlpSolver& solver,
                            const SolveOptions& options, const ProgressFn& progress) {
  for (const std::string& name : optimizers) {
    if (std::find(sweep_optimizers().begin(), sweep_optimizers().end(), name) ==
        sweep_optimizers().end())
      throw UnknownNameError("--optimizers: " +
                             unknown_name_message("optimizer", name, sweep_optimizers()));
  }
  const std::uint64_t peak = graph.peak_live_bytes();
  const double all_fast = all_fast_seconds(graph, platform);
  nlohmann::json rows = nlohmann::json::array();
  std::uint64_t done = 0;
  const std::vector<std::string> order = run_order(optimizers);
  std::size_t solves_left =
      ratios.size() * static_cast<std::size_t>(std::count_if(order.begin(), order.end(), is_ilp));
  for (const std::string& ratio : ratios) {
    const std::uint64_t limit =
        parse_fast_memory(nlohmann::json(ratio == "0" ? "0:1" : ratio), peak, "--ratios " + ratio);
    nlohmann::json row = {
        {"ratio", ratio}, {"fast_limit_bytes", limit}, {"optimizers", nlohmann::json::object()}};
    Plan best = greedy_plan(graph, platform, limit);
    for (const std::string& name : order) {
      nlohmann::json cell = nlohmann::json::object();
      SolveOptions cell_options = options;
      if (is_ilp(name) && options.seconds_left) {
        // A limit over the whole sweep: each solve may take an equal share of what is left (no
        // more than its own limit), so that the last ratios are solved too.
        cell_options.time_limit_s =
            std::min(options.time_limit_s,
                     std::max(0.0, options.seconds_left()) / static_cast<double>(solves_left));
      }
      if (is_ilp(name)) --solves_left;
      const double seconds =
          run_optimizer(name, graph, platform, limit, solver, cell_options, best, cell);
      if (seconds >= 0) {
        cell["iteration_ms"] = seconds * 1e3;
        cell["slowdown"] = seconds / all_fast;
      }
      row["optimizers"][name] = cell;
      if (progress) progress(++done, ratios.size() * optimizers.size());
    }
    rows.push_back(std::move(row));
  }
  return {{"model", graph.model()},
          {"batch", graph.batch()},
          {"optimizers", optimizers},
          {"platform", platform.name},
          {"peak_live_bytes", peak},
          {"all_fast_ms", all_fast * 1e3},
          {"rows", rows}};
}

std::string sweep_text(const nlohmann::json& report) {
  std::string out;
  append_format(out, "%s at batch %u on %s: slowdown against all-fast memory (%.6g ms)\n",
                printable(report["model"].get<std::string>()).c_str(),
                report["batch"].get<unsigned>(), report["platform"].get<std::string>().c_str(),
                report["all_fast_ms"].get<double>());
  const auto names = report["optimizers"].get<std::vector<std::string>>();
  append_format(out, "%-9s %12s", "slow:fast", "fast memory");
  for (const std::string& name : names)
    append_format(out, " %12s", name.c_str());
  out += "\n";
  for (const nlohmann::json& row : report["rows"]) {
    append_format(out, "%-9s %12s", row["ratio"].get<std::string>().c_str(),
                  format_bytes(row["fast_limit_bytes"].get<std::uint64_t>()).c_str());
    for (const std::string& name : names) {
      const nlohmann::json& cell = row["optimizers"][name];
      if (cell.contains("slowdown")) {
        append_format(out, " %11.3f%s", cell["slowdown"].get<double>(),
                      cell.value("status", "optimal") == "optimal" ? " " : "~");
      } else {
        append_format(out, " %12s", "-");
      }
    }
    out += "\n";
  }
  out +=
      "static, sync, async: AutoTM's ILP variants (~ where the solver stopped at its time limit; - "
      "no solution); 2lm: fast memory as a direct-mapped cache\n";
  return out;
}

}  // namespace sysgym::tensorplace
