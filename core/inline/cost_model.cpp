#include "inline/cost_model.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <map>

#include "base/error.hpp"
#include "base/rank_stats.hpp"
#include "env/config_reader.hpp"

namespace sysgym::inlining {

nlohmann::json CostModel::to_json() const {
  return {{"alpha", alpha},
          {"call_bytes", call_bytes},
          {"const_arg_bytes", const_arg_bytes},
          {"call_instr", call_instr},
          {"const_arg_instr", const_arg_instr},
          {"simplified_instr", simplified_instr},
          {"growth_instr", growth_instr}};
}

CostModel CostModel::from_json(const nlohmann::json& j, const std::string& what) {
  ConfigReader r(j, what);
  CostModel m;
  constexpr double kBig = 1e9;
  m.alpha = r.number("alpha", m.alpha, 0, 10);
  m.call_bytes = r.number("call_bytes", m.call_bytes, -kBig, kBig);
  m.const_arg_bytes = r.number("const_arg_bytes", m.const_arg_bytes, -kBig, kBig);
  m.call_instr = r.number("call_instr", m.call_instr, -kBig, kBig);
  m.const_arg_instr = r.number("const_arg_instr", m.const_arg_instr, -kBig, kBig);
  m.simplified_instr = r.number("simplified_instr", m.simplified_instr, -kBig, kBig);
  m.growth_instr = r.number("growth_instr", m.growth_instr, -kBig, kBig);
  r.finish();
  return m;
}

ProgramModel::ProgramModel(const Program& program)
    : program_(&program), sites_of_(program.functions.size()), calls_to_(program.functions.size()) {
  const auto& sites = program.sites;
  for (std::size_t i = 0; i < sites.size(); ++i) {
    sites_of_[sites[i].caller].push_back(i);
    calls_to_[sites[i].callee].push_back(i);
    const_args_.push_back(static_cast<double>(count_of(sites[i].features, "NumConstantArgs")));
    simplified_.push_back(
        static_cast<double>(count_of(sites[i].features, "NumInstructionsSimplified")));
  }
  double function_bytes = 0;
  for (std::size_t f = 0; f < program.functions.size(); ++f) {
    const Function& fn = program.functions[f];
    function_bytes += static_cast<double>(fn.text_bytes);
    std::int64_t located = 0;
    for (std::size_t s : calls_to_[f])
      located += sites[s].copies;
    deletable_.push_back(fn.local && count_of(fn.properties, "Uses", -1) == fn.calls_in &&
                         located == fn.calls_in && fn.calls_in > 0);
  }
  const auto never = program.reference.find("never");
  if (never != program.reference.end()) {
    other_text_ = static_cast<double>(never->second.text_bytes) - function_bytes;
    never_instructions_ = never->second.instructions;
  }
  // Post-order over the call graph (callees first); a call back into a function being visited
  // (recursion) sees that function's own bytes.
  std::vector<int> state(program.functions.size(), 0);  // 0 new, 1 open, 2 done
  for (std::size_t root = 0; root < program.functions.size(); ++root) {
    if (state[root] != 0) continue;
    std::vector<std::pair<std::size_t, std::size_t>> stack = {{root, 0}};
    state[root] = 1;
    while (!stack.empty()) {
      auto& [f, next] = stack.back();
      if (next < sites_of_[f].size()) {
        const std::size_t callee = sites[sites_of_[f][next++]].callee;
        if (state[callee] == 0) {
          state[callee] = 1;
          stack.emplace_back(callee, 0);
        }
        continue;
      }
      state[f] = 2;
      order_.push_back(f);
      stack.pop_back();
    }
  }
  for (std::size_t f : order_)
    bottom_up_.insert(bottom_up_.end(), sites_of_[f].begin(), sites_of_[f].end());

  std::map<std::string, std::size_t> first;
  for (std::size_t i = 0; i < sites.size(); ++i) {
    const std::string key =
        site_id(program.units.empty() ? "" : program.units[sites[i].unit],
                base_location(sites[i].location), program.functions[sites[i].callee].name);
    // A site without a location has no key to share (hand-made programs; extract skips them).
    const std::size_t group = sites[i].location.empty() ? i : first.emplace(key, i).first->second;
    written_at_.push_back(group);
    shared_decisions_ = shared_decisions_ || group != i;
  }
}

Decisions ProgramModel::as_compiled(const Decisions& d) const {
  if (!shared_decisions_) return d;
  Decisions inlined(d.size(), false), out(d.size(), false);
  for (std::size_t s = 0; s < d.size(); ++s) {
    if (d[s]) inlined[written_at_[s]] = true;
  }
  for (std::size_t s = 0; s < d.size(); ++s)
    out[s] = inlined[written_at_[s]];
  return out;
}

ProgramModel::Terms ProgramModel::terms(double alpha, const Decisions& given) const {
  const Decisions d = as_compiled(given);
  const auto& sites = program_->sites;
  const auto& functions = program_->functions;
  std::vector<double> e0(functions.size()), e1(functions.size(), 0), e2(functions.size(), 0);
  for (std::size_t f = 0; f < functions.size(); ++f)
    e0[f] = static_cast<double>(functions[f].text_bytes);
  for (std::size_t f : order_) {
    for (std::size_t s : sites_of_[f]) {
      if (!d[s]) continue;
      const auto copies = static_cast<double>(sites[s].copies);
      const std::size_t c = sites[s].callee;
      e0[f] += copies * alpha * e0[c];
      e1[f] += copies * (alpha * e1[c] + 1);
      e2[f] += copies * (alpha * e2[c] + const_args_[s]);
    }
  }
  Terms t;
  t.s0 = other_text_;
  for (std::size_t f = 0; f < functions.size(); ++f) {
    bool dead = deletable_[f];
    for (std::size_t s : calls_to_[f])
      dead = dead && d[s];
    if (dead) continue;
    t.s0 += e0[f];
    t.s1 += e1[f];
    t.s2 += e2[f];
  }
  for (std::size_t s = 0; s < sites.size(); ++s) {
    if (!d[s]) continue;
    const double calls = sites[s].calls;
    t.calls += calls;
    t.const_calls += calls * const_args_[s];
    t.simplified_calls += calls * simplified_[s];
    t.growth_calls += calls * e0[sites[s].callee] / 1024;
  }
  return t;
}

Estimate ProgramModel::estimate(const CostModel& m, const Decisions& d) const {
  if (d.size() != program_->sites.size())
    throw ConfigError("decisions for " + std::to_string(d.size()) + " sites; " + program_->name +
                      " has " + std::to_string(program_->sites.size()));
  const Terms t = terms(m.alpha, d);
  return {t.s0 - m.call_bytes * t.s1 - m.const_arg_bytes * t.s2,
          never_instructions_ - m.call_instr * t.calls - m.const_arg_instr * t.const_calls -
              m.simplified_instr * t.simplified_calls + m.growth_instr * t.growth_calls};
}

double relative_cost(const ProgramModel& p, const Scoring& s, const Decisions& d) {
  const Estimate e = p.estimate(s.model, d);
  const double size = e.text_bytes / s.baseline.text_bytes;
  const double instructions = e.instructions / s.baseline.instructions;
  // The goal "fewer instructions at no more than +5 % text" as a penalty: each point of text
  // over the limit costs ten points of the objective.
  const double over = s.size_limit > 0 && size > s.size_limit ? 10 * (size - s.size_limit) : 0.0;
  switch (s.objective) {
    case Objective::kSize:
      return size;
    case Objective::kInstructions:
      return instructions + over;
    case Objective::kMix:
      break;
  }
  return s.size_weight * size + (1 - s.size_weight) * instructions + over;
}

namespace {

// Solves min |A x - b|^2 (rows already divided by the measured value).
Eigen::VectorXd least_squares(const Eigen::MatrixXd& a, const Eigen::VectorXd& b) {
  return a.colPivHouseholderQr().solve(b);
}

}  // namespace

CostModel fit_cost_model(const std::vector<const ProgramModel*>& programs,
                         const std::vector<CalibrationSample>& samples) {
  CostModel best;
  if (samples.empty()) return best;
  double best_residual = std::numeric_limits<double>::infinity();
  for (int step = 0; step <= 32; ++step) {
    const double alpha = 0.2 + 0.05 * step;
    const auto n = static_cast<Eigen::Index>(samples.size());
    Eigen::MatrixXd a(n, 2);
    Eigen::VectorXd b(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      const CalibrationSample& s = samples[static_cast<std::size_t>(i)];
      const ProgramModel::Terms t = programs[s.program]->terms(alpha, s.decisions);
      a(i, 0) = -t.s1 / s.text_bytes;
      a(i, 1) = -t.s2 / s.text_bytes;
      b(i) = (s.text_bytes - t.s0) / s.text_bytes;
    }
    const Eigen::VectorXd x = least_squares(a, b);
    const double residual = (a * x - b).squaredNorm();
    if (residual < best_residual) {
      best_residual = residual;
      best.alpha = alpha;
      best.call_bytes = x(0);
      best.const_arg_bytes = x(1);
    }
  }
  std::vector<const CalibrationSample*> run;
  for (const CalibrationSample& s : samples) {
    if (s.instructions > 0) run.push_back(&s);
  }
  if (run.size() < 4) return best;
  const auto n = static_cast<Eigen::Index>(run.size());
  Eigen::MatrixXd a(n, 4);
  Eigen::VectorXd b(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const CalibrationSample& s = *run[static_cast<std::size_t>(i)];
    const ProgramModel& p = *programs[s.program];
    const ProgramModel::Terms t = p.terms(best.alpha, s.decisions);
    a.row(i) << -t.calls, -t.const_calls, -t.simplified_calls, t.growth_calls;
    a.row(i) /= s.instructions;
    b(i) = (s.instructions - p.never_instructions()) / s.instructions;
  }
  const Eigen::VectorXd x = least_squares(a, b);
  best.call_instr = x(0);
  best.const_arg_instr = x(1);
  best.simplified_instr = x(2);
  best.growth_instr = x(3);
  return best;
}

Fit model_fit(const CostModel& model, const std::vector<const ProgramModel*>& programs,
              const std::vector<CalibrationSample>& samples) {
  std::vector<double> ms, rs, mi, ri;
  Fit fit;
  for (const CalibrationSample& s : samples) {
    const Estimate e = programs[s.program]->estimate(model, s.decisions);
    ms.push_back(e.text_bytes);
    rs.push_back(s.text_bytes);
    fit.size_error += std::abs(e.text_bytes - s.text_bytes) / s.text_bytes;
    if (s.instructions > 0) {
      mi.push_back(e.instructions);
      ri.push_back(s.instructions);
      fit.instructions_error += std::abs(e.instructions - s.instructions) / s.instructions;
    }
  }
  fit.size_spearman = spearman(ms, rs);
  fit.instructions_spearman = spearman(mi, ri);
  if (!rs.empty()) fit.size_error /= static_cast<double>(rs.size());
  if (!ri.empty()) fit.instructions_error /= static_cast<double>(ri.size());
  return fit;
}

}  // namespace sysgym::inlining
