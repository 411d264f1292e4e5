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
#include <cstdarg>
#include <cstdio>

#include "profiling/profiler.hpp"

namespace sysgym::profiling {
namespace {

double ms(double ns) {
  return ns / 1e6;
}

// printf onto a string (the table's columns are printf's).
__attribute__((format(printf, 2, 3))) void append(std::string& out, const char* format, ...) {
  char line[512];
  va_list args;
  va_start(args, format);
  const int n = std::vsnprintf(line, sizeof line, format, args);
  va_end(args);
  out.append(line, static_cast<std::size_t>(std::clamp(n, 0, static_cast<int>(sizeof line) - 1)));
}

void sort_by_self(nlohmann::json& rows) {
  std::sort(rows.begin(), rows.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return a["self_ms"].get<double>() > b["self_ms"].get<double>();
  });
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
  sort_by_self(rows);
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

nlohmann::json with_crossings(nlohmann::json r, const Crossings& c) {
  const double n = static_cast<double>(c.count);
  const double timer_ms = ms(n * (c.overhead.inside_ns + c.overhead.outside_ns));
  const double crossing_ms = ms(c.measured_ns - n * c.overhead.inside_ns);
  double in_scopes_ms = 0;
  for (const nlohmann::json& row : r["ops"])
    in_scopes_ms += row["self_ms"].get<double>();
  const double boundary_ms = crossing_ms - in_scopes_ms;
  const double wall_ms = r["corrected_wall_ms"].get<double>() - timer_ms;
  const char* category = category_name(Category::kBoundary);
  r["ops"].push_back({{"op", "js-wasm.crossing"},
                      {"category", category},
                      {"count", c.count},
                      {"inclusive_ms", crossing_ms},
                      {"self_ms", boundary_ms},
                      {"mean_us", c.count > 0 ? crossing_ms * 1e3 / n : 0.0},
                      {"measured_inclusive_ms", ms(c.measured_ns)},
                      {"measured_self_ms", ms(c.measured_ns) - in_scopes_ms}});
  for (nlohmann::json& row : r["ops"])
    row["share"] = wall_ms > 0 ? row["self_ms"].get<double>() / wall_ms : 0.0;
  sort_by_self(r["ops"]);
  r["categories_ms"][category] = r["categories_ms"].value(category, 0.0) + boundary_ms;
  r["corrected_wall_ms"] = wall_ms;
  r["unattributed_ms"] = r["unattributed_ms"].get<double>() - boundary_ms - timer_ms;
  r["sum_check"] = {{"self_plus_unattributed_ms",
                     in_scopes_ms + boundary_ms + r["unattributed_ms"].get<double>()},
                    {"corrected_wall_ms", wall_ms}};
  r["crossings"] = {{"count", c.count},
                    {"calls", c.calls},
                    {"overhead_per_crossing_ns",
                     {{"inside", c.overhead.inside_ns}, {"outside", c.overhead.outside_ns}}}};
  return r;
}

std::string report_text(const nlohmann::json& r) {
  std::string out;
  append(out, "%-28s %-16s %10s %12s %12s %7s %12s\n", "operation", "category", "count",
         "inclusive ms", "self ms", "share", "mean us");
  for (const nlohmann::json& op : r["ops"]) {
    append(out, "%-28s %-16s %10lld %12.2f %12.2f %6.1f%% %12.3f\n",
           op["op"].get<std::string>().c_str(), op["category"].get<std::string>().c_str(),
           op["count"].get<long long>(), op["inclusive_ms"].get<double>(),
           op["self_ms"].get<double>(), 100 * op["share"].get<double>(),
           op["mean_us"].get<double>());
  }
  const bool wasm = r.contains("crossings");
  append(out, "%-28s %-16s %10s %12s %12.2f %6.1f%%\n",
         wasm ? "(in JS, outside the module)" : "(outside any operation)", "", "", "",
         r["unattributed_ms"].get<double>(),
         100 * r["unattributed_ms"].get<double>() / r["corrected_wall_ms"].get<double>());
  out += "by category (self ms):";
  for (const auto& [category, ms] : r["categories_ms"].items())
    append(out, "  %s %.2f", category.c_str(), ms.get<double>());
  const auto& check = r["sum_check"];
  append(out, "\nself times + outside = %.2f ms = the corrected wall time %.2f ms\n",
         check["self_plus_unattributed_ms"].get<double>(),
         check["corrected_wall_ms"].get<double>());
  append(out, "wall %.2f ms profiled (%lld scopes at %.0f + %.0f ns each",
         r["wall_ms"].get<double>(), r["scopes"].get<long long>(),
         r["overhead_per_scope_ns"]["inside"].get<double>(),
         r["overhead_per_scope_ns"]["outside"].get<double>());
  if (wasm) {
    const auto& c = r["crossings"];
    append(out, ", %lld JS-wasm crossings at %.0f + %.0f ns each", c["count"].get<long long>(),
           c["overhead_per_crossing_ns"]["inside"].get<double>(),
           c["overhead_per_crossing_ns"]["outside"].get<double>());
  }
  append(out, "), %.2f ms corrected", r["corrected_wall_ms"].get<double>());
  if (r.contains("unprofiled_ms")) {
    append(out, "; unprofiled %.2f ms (fastest of %d): corrected %+.1f %%, uncorrected %+.1f %%",
           r["unprofiled_ms"].get<double>(), r["runs"].get<int>(),
           100 * r["corrected_error"].get<double>(), 100 * r["uncorrected_overhead"].get<double>());
  }
  out += "\n";
  return out;
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
