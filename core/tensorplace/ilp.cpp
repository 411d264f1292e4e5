#include "tensorplace/ilp.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "base/quote.hpp"

namespace sysgym::tensorplace {
namespace {

constexpr double kMiB = 1.0 / (1024.0 * 1024.0);  // sizes in MiB (pages are exact in binary)

// t_k's rows for one kernel: the compute bound and the memory time of its operands' placement.
void add_kernel_rows(const Graph& graph, const Platform& platform, std::uint32_t k,
                     const TensorTerms& terms, std::uint32_t time, LpBuilder& lp) {
  const Kernel& kernel = graph.kernel(k);
  const auto slow = [&](std::size_t i) { return terms.slow_at.at({kernel.operand(i), k}); };
  if (!kernel.times.empty()) {
    // One configuration of the table: y_kc = 1 exactly when the operands are placed as c.
    LinearExpr pick;
    LinearExpr cost{0, {{time, 1}}};
    for (std::size_t c = 0; c < kernel.times.size(); ++c) {
      const std::uint32_t y = lp.add_var(lp_name("y", k, c), LpBuilder::Kind::kBinary);
      pick.add(y, 1);
      cost.add(y, -kernel.times[c] * kMsPerSecond);
      for (std::size_t i = 0; i < kernel.operand_count(); ++i) {
        const bool in_slow = ((c >> i) & 1U) != 0;
        // y <= slow (c puts i in slow) or y <= 1 - slow.
        LinearExpr tie{in_slow ? 0.0 : -1.0, {{y, 1}}};
        tie.add(slow(i), in_slow ? -1 : 1);
        lp.add_row(lp_name("tie", k, c, i), tie, "<=", 0);
      }
    }
    lp.add_row(lp_name("pick", k), pick, "=", 1);
    lp.add_row(lp_name("time", k), cost, ">=", 0);
    return;
  }
  LinearExpr memory{0, {{time, 1}}};
  for (std::size_t i = 0; i < kernel.operand_count(); ++i) {
    const auto bytes = static_cast<double>(graph.tensor(kernel.operand(i)).bytes);
    const bool read = i < kernel.inputs.size();
    const double fast = bytes / (read ? platform.fast_read : platform.fast_write) * kMsPerSecond;
    const double in_slow = bytes / (read ? platform.slow_read : platform.slow_write) * kMsPerSecond;
    memory.constant -= fast;
    memory.add(slow(i), fast - in_slow);
  }
  lp.add_row(lp_name("memory", k), memory, ">=", 0);
}

// Capacity rows where some tensor's fast share can grow (elsewhere the row of the kernel before
// implies it) and the live bytes exceed the limit (elsewhere every placement fits). Their terms
// are counted before any is written: a graph that keeps thousands of tensors live over thousands
// of kernels makes them quadratic (50,000 chained kernels with persistent weights grew to 12 GB
// of LP text before it was stopped).
void add_capacity_rows(const Graph& graph, const TensorTerms& terms,
                       const std::vector<std::uint64_t>& limits, LpBuilder& lp) {
  const std::size_t kernels = graph.kernels().size();
  std::vector<std::pair<const TensorTerms::Span*, double>> spans;  // with the tensor's MiB
  spans.reserve(terms.fast.size());
  // Per kernel: spans starting there, and the change in the terms of the spans live there.
  std::vector<std::int64_t> starting(kernels + 1, 0), terms_change(kernels + 1, 0);
  for (const TensorTerms::Span& span : terms.fast) {
    spans.emplace_back(&span,
                       static_cast<double>(graph.tensor(span.tensor).allocated_bytes()) * kMiB);
    const auto size = static_cast<std::int64_t>(span.fast.terms.size());
    ++starting[span.first];
    terms_change[span.first] += size;
    terms_change[std::min<std::size_t>(span.last, kernels - 1) + 1] -= size;
  }
  std::stable_sort(spans.begin(), spans.end(),
                   [](const auto& a, const auto& b) { return a.first->first < b.first->first; });
  const std::vector<std::uint64_t> live = graph.live_bytes();
  std::vector<bool> needed(kernels, false);
  std::uint64_t total_terms = 0;
  std::int64_t row_terms = 0, longest_row = 0;
  bool row_before = false;
  for (std::uint32_t k = 0; k < kernels; ++k) {
    row_terms += terms_change[k];
    // A limit lower than the kernel before's is not implied by that kernel's row either.
    const bool tighter = k > 0 && limits[k] < limits[k - 1];
    needed[k] = live[k] > limits[k] && (starting[k] > 0 || tighter || !row_before);
    row_before = live[k] > limits[k];
    if (!needed[k]) continue;
    total_terms += static_cast<std::uint64_t>(row_terms);
    longest_row = std::max(longest_row, row_terms);
  }
  if (total_terms > kMaxCapacityTerms) {
    throw ConfigError("the ILP of " + quote(graph.model()) + " would need " +
                      std::to_string(total_terms) + " terms in its fast-memory rows (" +
                      std::to_string(kernels) + " kernels, up to " + std::to_string(longest_row) +
                      " terms in one), more than the " + std::to_string(kMaxCapacityTerms) +
                      " a solve can take: the heuristics and the env take the graph at any size");
  }
  std::vector<std::pair<const TensorTerms::Span*, double>> active;
  std::size_t next = 0;
  for (std::uint32_t k = 0; k < kernels; ++k) {
    for (; next < spans.size() && spans[next].first->first == k; ++next)
      active.push_back(spans[next]);
    if (!needed[k]) continue;
    std::erase_if(active, [&](const auto& span) { return span.first->last < k; });
    const double limit = static_cast<double>(limits[k]) * kMiB;
    LinearExpr row;
    for (const auto& [span, mib] : active)
      row.add(span->fast, mib);
    if (!lp.add_row(lp_name("capacity", k), row, "<=", limit) && row.constant > limit)
      throw ConfigError("no placement fits: kernel " + graph.kernel(k).name +
                        " needs more fast memory than the limit for tensors that must be fast");
  }
}

}  // namespace

IlpModel build_ilp(const Graph& graph, const Platform& platform, std::uint64_t fast_limit,
                   IlpVariant variant) {
  return build_ilp(graph, platform, std::vector<std::uint64_t>(graph.kernels().size(), fast_limit),
                   variant);
}

IlpModel build_ilp(const Graph& graph, const Platform& platform,
                   const std::vector<std::uint64_t>& limits, IlpVariant variant) {
  IlpModel model;
  LpBuilder lp;
  std::vector<std::uint32_t> times;
  LinearExpr objective;
  for (std::uint32_t k = 0; k < graph.kernels().size(); ++k) {
    // A roofline kernel takes at least its compute time: a bound, not a row.
    const Kernel& kernel = graph.kernel(k);
    const double compute =
        kernel.times.empty() ? kernel.flops / platform.peak_flops * kMsPerSecond : 0;
    times.push_back(lp.add_var(lp_name("t", k), LpBuilder::Kind::kContinuous, compute));
    objective.add(times.back(), 1);
  }
  lp.minimise(objective);
  TensorTerms terms;
  model.tensors.reserve(graph.tensors().size());
  for (std::uint32_t t = 0; t < graph.tensors().size(); ++t)
    model.tensors.emplace_back(graph, platform, t, variant, lp, terms);
  for (std::uint32_t k = 0; k < graph.kernels().size(); ++k) {
    add_kernel_rows(graph, platform, k, terms, times[k], lp);
    const auto async = terms.async_ms.find(k);
    if (async == terms.async_ms.end()) continue;
    LinearExpr overlap{0, {{times[k], 1}}};
    overlap.add(async->second, -1);
    lp.add_row(lp_name("async", k), overlap, ">=", 0);
  }
  add_capacity_rows(graph, terms, limits, lp);
  model.binaries = lp.binaries();
  model.rows = lp.rows();
  for (std::uint32_t v = 0; v < lp.variables(); ++v)
    model.names.push_back(lp.name(v));
  std::string title = "sysgym tensorplace ";
  title += variant_name(variant);
  title += " ILP: ";
  title += printable(graph.model());  // one line of the LP file, whatever the name holds
  model.lp = lp.text(title);
  return model;
}

Plan ilp_plan(const Graph& graph, const IlpModel& model, const SolveResult& solution) {
  if (!solution.has_solution) throw ConfigError("the ILP has no solution to build a plan from");
  Plan plan = all_in(graph, kFast);
  for (const TensorFlow& tensor : model.tensors)
    tensor.extract(model.names, solution.values, plan);
  return plan;
}

std::optional<std::map<std::string, double>> ilp_start(const IlpModel& model, const Plan& plan) {
  std::vector<std::vector<Move>> moves(model.tensors.size());
  for (const Move& m : plan.moves) {
    if (m.tensor >= moves.size()) return std::nullopt;
    moves[m.tensor].push_back(m);
  }
  std::map<std::string, double> start;
  for (std::uint32_t t = 0; t < model.tensors.size(); ++t) {
    if (!model.tensors[t].follow(plan.initial.at(t), moves[t], model.names, start))
      return std::nullopt;
  }
  return start;
}

namespace {

// One solve at limits per kernel, its plan replayed against the limit.
IlpOutcome solve_within(const Graph& graph, const Platform& platform, std::uint64_t fast_limit,
                        const std::vector<std::uint64_t>& limits, IlpVariant variant,
                        const IlpSolver& solver, SolveOptions options, const Plan& start) {
  IlpOutcome out;
  if (options.seconds_left && options.seconds_left() <= 0) {
    out.result.status = "time limit";
    return out;
  }
  {  // the model (its LP text can be large) is freed before the replay
    const IlpModel model = build_ilp(graph, platform, limits, variant);
    out.binaries = model.binaries;
    out.rows = model.rows;
    if (auto values = ilp_start(model, start)) options.start = std::move(*values);
    out.result = solver(model.lp, options);
    if (out.result.has_solution) out.plan = ilp_plan(graph, model, out.result);
  }
  if (out.plan) out.replay = simulate(graph, platform, *out.plan, fast_limit);
  return out;
}

}  // namespace

IlpOutcome solve_ilp(const Graph& graph, const Platform& platform, std::uint64_t fast_limit,
                     IlpVariant variant, const IlpSolver& solver, const SolveOptions& options,
                     const Plan& start, int defrag_rounds) {
  std::vector<std::uint64_t> limits(graph.kernels().size(), fast_limit);
  IlpOutcome out =
      solve_within(graph, platform, fast_limit, limits, variant, solver, options, start);
  // AutoTM's defragmentation: where the plan's best-fit heap overflows the limit, the limit at
  // that kernel shrinks by the overflow, and the ILP is solved again from the plan so far.
  while (out.replay && out.replay->fast_heap_bytes > fast_limit &&
         out.defrag_rounds < defrag_rounds) {
    for (std::uint32_t k = 0; k < limits.size(); ++k) {
      const std::uint64_t top = out.replay->kernels[k].heap_top;
      if (top > fast_limit) limits[k] -= std::min(limits[k], top - fast_limit);
    }
    IlpOutcome next;
    try {
      next = solve_within(graph, platform, fast_limit, limits, variant, solver, options, *out.plan);
    } catch (const ConfigError&) {
      break;  // the lowered limits fit no placement: the plan so far is the best there is
    }
    if (!next.replay) break;
    next.defrag_rounds = out.defrag_rounds + 1;
    out = std::move(next);
  }
  return out;
}

std::chrono::steady_clock::time_point deadline_after(double seconds) {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(seconds));
}

double seconds_until(std::chrono::steady_clock::time_point deadline) {
  return std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
}

void SolveOptions::count_down_to(std::chrono::steady_clock::time_point deadline) {
  seconds_left = [deadline] { return seconds_until(deadline); };
}

double SolveOptions::seconds_for_a_solve() const {
  return seconds_left ? std::min(time_limit_s, seconds_left()) : time_limit_s;
}

}  // namespace sysgym::tensorplace
