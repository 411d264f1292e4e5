#include "tensorplace/ilp.hpp"

#include <algorithm>
#include <map>
#include <string_view>

#include "base/append_format.hpp"
#include "base/error.hpp"

namespace sysgym::tensorplace {
namespace {

constexpr double kMs = 1e3;                       // times in milliseconds
constexpr double kMiB = 1.0 / (1024.0 * 1024.0);  // sizes in MiB (pages are exact in binary)

// Terms "+ c name" of one row or objective, wrapped to keep lines short.
class Row {
 public:
  void add(double coefficient, const std::string& name) {
    if (coefficient == 0) return;
    append_format(text_, " %s %.17g %s", coefficient < 0 ? "-" : "+",
                  coefficient < 0 ? -coefficient : coefficient, name.c_str());
    if (++terms_ % 8 == 0) text_ += "\n  ";
  }
  bool empty() const { return terms_ == 0; }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::size_t terms_ = 0;
};

// "prefix<a>[_<b>[_<c>]]", built by appending (g++ 12 warns, wrongly, about "literal" +
// std::to_string(...): its bug 105329).
std::string named(std::string_view prefix, std::size_t a) {
  std::string name(prefix);
  name += std::to_string(a);
  return name;
}
std::string named(std::string_view prefix, std::size_t a, std::size_t b) {
  std::string name = named(prefix, a);
  name += '_';
  name += std::to_string(b);
  return name;
}
std::string named(std::string_view prefix, std::size_t a, std::size_t b, std::size_t c) {
  std::string name = named(prefix, a, b);
  name += '_';
  name += std::to_string(c);
  return name;
}

}  // namespace

IlpModel static_ilp(const Graph& graph, const Platform& platform, std::uint64_t fast_limit) {
  IlpModel model;
  std::string constraints;
  std::string bounds;
  std::vector<std::string> binaries;
  const auto add_row = [&](const Row& row, const char* sense, double rhs, const std::string& name) {
    append_format(constraints, " %s:%s %s %.17g\n", name.c_str(), row.text().c_str(), sense, rhs);
    ++model.rows;
  };
  // Placement binaries; a tensor allowed in one pool only is fixed there.
  for (std::uint32_t t = 0; t < graph.tensors().size(); ++t) {
    const Tensor& tensor = graph.tensor(t);
    if (tensor.fast_allowed && tensor.slow_allowed) {
      model.placement.push_back(named("x", t));
      binaries.push_back(model.placement.back());
    } else {
      model.placement.emplace_back();
    }
  }
  // x as a term: forced-slow tensors contribute constants instead.
  const auto slow_share = [&](std::uint32_t t, double coefficient, Row& row, double& constant) {
    if (!model.placement[t].empty())
      row.add(coefficient, model.placement[t]);
    else if (!graph.tensor(t).fast_allowed)
      constant += coefficient;
  };
  Row objective;
  for (std::uint32_t k = 0; k < graph.kernels().size(); ++k) {
    const Kernel& kernel = graph.kernel(k);
    const std::string time = named("t", k);
    objective.add(1, time);
    if (!kernel.times.empty()) {
      // One configuration of the table: y_kc = 1 exactly when the operands are placed as c.
      Row pick;
      Row cost;
      cost.add(1, time);
      for (std::size_t c = 0; c < kernel.times.size(); ++c) {
        const std::string y = named("y", k, c);
        binaries.push_back(y);
        pick.add(1, y);
        cost.add(-kernel.times[c] * kMs, y);
        for (std::size_t i = 0; i < kernel.operand_count(); ++i) {
          const bool slow = ((c >> i) & 1U) != 0;
          Row tie;
          tie.add(1, y);
          double constant = 0;
          slow_share(kernel.operand(i), slow ? -1 : 1, tie, constant);
          add_row(tie, "<=", (slow ? 0 : 1) - constant, named("tie", k, c, i));
        }
      }
      add_row(pick, "=", 1, named("pick", k));
      add_row(cost, ">=", 0, named("time", k));
      continue;
    }
    // Roofline: at least the compute time, at least the memory time of the placement.
    append_format(bounds, " %s >= %.17g\n", time.c_str(), kernel.flops / platform.peak_flops * kMs);
    std::map<std::uint32_t, double> extra;  // tensor -> added ms when slow
    double base = 0;
    for (std::size_t i = 0; i < kernel.operand_count(); ++i) {
      const std::uint32_t t = kernel.operand(i);
      const auto bytes = static_cast<double>(graph.tensor(t).bytes);
      const bool read = i < kernel.inputs.size();
      const double fast = bytes / (read ? platform.fast_read : platform.fast_write) * kMs;
      const double slow = bytes / (read ? platform.slow_read : platform.slow_write) * kMs;
      base += fast;
      extra[t] += slow - fast;
    }
    Row memory;
    memory.add(1, time);
    double constant = 0;
    for (const auto& [t, ms] : extra)
      slow_share(t, -ms, memory, constant);
    add_row(memory, ">=", base - constant, named("memory", k));
  }
  // Capacity where tensors are born (live bytes only grow there).
  const std::vector<std::uint64_t> live = graph.live_bytes();
  std::vector<std::uint32_t> active;  // the tensors live at k, in index order
  for (std::uint32_t k = 0; k < graph.kernels().size(); ++k) {
    const auto middle = static_cast<std::ptrdiff_t>(active.size());
    const std::vector<std::uint32_t>& born = graph.born_at(k);
    active.insert(active.end(), born.begin(), born.end());
    std::inplace_merge(active.begin(), active.begin() + middle, active.end());
    std::erase_if(active, [&](std::uint32_t t) { return graph.lifetime(t).last < k; });
    if (born.empty() || live[k] <= fast_limit) continue;
    // sum MiB (1 - x) <= limit  <=>  sum MiB x >= live MiB - limit MiB
    Row row;
    double forced_slow = 0;
    for (std::uint32_t t : active) {
      const double mib = static_cast<double>(graph.tensor(t).allocated_bytes()) * kMiB;
      slow_share(t, mib, row, forced_slow);
    }
    const double need = static_cast<double>(live[k] - fast_limit) * kMiB - forced_slow;
    if (row.empty()) {
      if (need > 0)
        throw ConfigError("no placement fits: kernel " + graph.kernel(k).name +
                          " needs more fast memory than the limit for tensors that must be fast");
      continue;
    }
    add_row(row, ">=", need, named("capacity", k));
  }
  model.binaries = binaries.size();
  std::string lp = "\\ sysgym tensorplace static ILP: ";
  lp += graph.model();
  lp += "\nMinimize\n obj:";
  lp += objective.text();
  lp += "\nSubject To\n";
  lp += constraints;
  lp += "Bounds\n";
  lp += bounds;
  for (const std::string& name : model.placement)
    if (!name.empty()) append_format(lp, " 0 <= %s <= 1\n", name.c_str());
  lp += "Binaries\n";
  for (std::size_t i = 0; i < binaries.size(); ++i) {
    lp += i % 10 == 0 ? "\n " : " ";
    lp += binaries[i];
  }
  lp += "\nEnd\n";
  model.lp = std::move(lp);
  return model;
}

Plan static_plan(const Graph& graph, const IlpModel& model, const SolveResult& solution) {
  if (!solution.has_solution) throw ConfigError("the ILP has no solution to build a plan from");
  Plan plan = all_in(graph, kFast);
  for (std::uint32_t t = 0; t < graph.tensors().size(); ++t) {
    const std::string& name = model.placement[t];
    if (name.empty()) continue;  // all_in put a one-pool tensor in its pool
    const auto found = solution.values.find(name);
    plan.initial[t] = found != solution.values.end() && found->second >= 0.5 ? kSlow : kFast;
  }
  return plan;
}

std::map<std::string, double> static_start(const IlpModel& model, const Plan& plan) {
  std::map<std::string, double> start;
  for (std::size_t t = 0; t < model.placement.size(); ++t) {
    if (!model.placement[t].empty())
      start[model.placement[t]] = plan.initial[t] == kSlow ? 1.0 : 0.0;
  }
  return start;
}

}  // namespace sysgym::tensorplace
