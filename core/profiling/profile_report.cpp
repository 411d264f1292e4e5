// The profile as a report: RL-Scope's overhead correction applied per occurrence, and the
// timeline as Chrome trace events.
//
// A scope's measured interval holds its own timer cost (`inside`) and, for every scope opened
// within it, that scope's whole cost (inside + outside); its self time holds its own inside and
// each direct child's outside. So, per operation over its `count` occurrences:
//   inclusive = measured - count x inside - descendants x (inside + outside)
//   self      = measured - count x inside - children x outside
// and the wall time loses every scope's cost; the time outside any scope ("unattributed") loses
// the outside cost of the top-level scopes. Self times plus the unattributed rest add up to the
// corrected wall time, which the report checks.
#include <algorithm>

#include "profiling/profiler.hpp"

namespace sysgym::profiling {
namespace {

double ms(double ns) {
  return ns / 1e6;
}

}  // namespace

nlohmann::json report(const Profiler& p, const Overhead& o) {
  const std::vector<OpInfo> ops = registered_ops();
  const auto& totals = p.totals();
  const double per_scope = o.inside_ns + o.outside_ns;
  const double wall = static_cast<double>(p.wall_ns());
  const double corrected_wall = wall - static_cast<double>(p.scopes()) * per_scope;
  nlohmann::json rows = nlohmann::json::array();
  double self_sum = 0, top_inclusive = 0;
  std::int64_t nested = 0;
  for (std::size_t i = 0; i < totals.size(); ++i) {
    const Profiler::OpTotals& t = totals[i];
    if (t.count == 0) continue;
    nested += t.children;
    const double count = static_cast<double>(t.count);
    const double inclusive = static_cast<double>(t.inclusive_ns) - count * o.inside_ns -
                             static_cast<double>(t.descendants) * per_scope;
    const double self = static_cast<double>(t.self_ns) - count * o.inside_ns -
                        static_cast<double>(t.children) * o.outside_ns;
    self_sum += self;
    rows.push_back({{"op", ops[i].name},
                    {"category", category_name(ops[i].category)},
                    {"count", t.count},
                    {"inclusive_ms", ms(inclusive)},
                    {"self_ms", ms(self)},
                    {"mean_us", inclusive / count / 1e3},
                    {"share", corrected_wall > 0 ? self / corrected_wall : 0.0},
                    {"measured_inclusive_ms", ms(static_cast<double>(t.inclusive_ns))},
                    {"measured_self_ms", ms(static_cast<double>(t.self_ns))}});
  }
  std::sort(rows.begin(), rows.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return a["self_ms"].get<double>() > b["self_ms"].get<double>();
  });
  // Top-level scopes' measured time: every self time plus every child's outside cost.
  for (const nlohmann::json& r : rows)
    top_inclusive += r["measured_self_ms"].get<double>() * 1e6;
  const std::int64_t top_level = p.scopes() - nested;
  const double rest = wall - top_inclusive - static_cast<double>(top_level) * o.outside_ns;
  nlohmann::json categories = nlohmann::json::object();
  for (const nlohmann::json& r : rows) {
    const std::string c = r["category"];
    categories[c] = categories.value(c, 0.0) + r["self_ms"].get<double>();
  }
  return {{"wall_ms", ms(wall)},
          {"corrected_wall_ms", ms(corrected_wall)},
          {"unattributed_ms", ms(rest)},
          {"scopes", p.scopes()},
          {"overhead_per_scope_ns", {{"inside", o.inside_ns}, {"outside", o.outside_ns}}},
          {"ops", rows},
          {"categories_ms", categories},
          {"sum_check",
           {{"self_plus_unattributed_ms", ms(self_sum + rest)},
            {"corrected_wall_ms", ms(corrected_wall)}}}};
}

nlohmann::json chrome_trace(const Profiler& p) {
  const std::vector<OpInfo> ops = registered_ops();
  nlohmann::json events = nlohmann::json::array();
  for (const TraceEvent& e : p.events()) {
    const OpInfo& op = ops[static_cast<std::size_t>(e.op)];
    events.push_back({{"name", op.name},
                      {"cat", category_name(op.category)},
                      {"ph", "X"},
                      {"ts", static_cast<double>(e.begin_ns) / 1e3},
                      {"dur", static_cast<double>(e.end_ns - e.begin_ns) / 1e3},
                      {"pid", 1},
                      {"tid", 1}});
  }
  return {{"traceEvents", std::move(events)},
          {"displayTimeUnit", "ms"},
          {"otherData", {{"dropped_events", p.dropped_events()}}}};
}

}  // namespace sysgym::profiling
