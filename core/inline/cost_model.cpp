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
          {"function_bytes", function_bytes},
          {"recursive_growth", recursive_growth},
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
  m.function_bytes = r.number("function_bytes", m.function_bytes, -kBig, kBig);
  m.recursive_growth = r.number("recursive_growth", m.recursive_growth, -kBig, kBig);
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
  for (std::size_t f : order_) {
    for (std::size_t s : sites_of_[f]) {
      if (sites[s].decidable()) bottom_up_.push_back(s);
    }
  }

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
  const auto& sites = program_->sites;
  // A site clang never inlines is not in bottom_up_: it stays a call whatever d says.
  if (!shared_decisions_ && bottom_up_.size() == sites.size()) return d;
  Decisions inlined(d.size(), false), out(d.size(), false);
  for (std::size_t s = 0; s < d.size(); ++s) {
    if (d[s] && sites[s].decidable()) inlined[written_at_[s]] = true;
  }
  for (std::size_t s = 0; s < d.size(); ++s)
    out[s] = inlined[written_at_[s]];
  return out;
}

ProgramModel::Terms ProgramModel::terms(double alpha, const Decisions& given) const {
  const Decisions d = as_compiled(given);
  const auto& sites = program_->sites;
  const auto& functions = program_->functions;
  std::vector<double> e0(functions.size()), e1(functions.size(), 0), e2(functions.size(), 0),
      e4(functions.size(), 0);
  for (std::size_t f = 0; f < functions.size(); ++f)
    e0[f] = static_cast<double>(functions[f].text_bytes);
  for (std::size_t f : order_) {
    for (std::size_t s : sites_of_[f]) {
      if (!d[s]) continue;
      const auto copies = static_cast<double>(sites[s].copies);
      const std::size_t c = sites[s].callee;
      // A call of f to itself copies f as it is so far (alpha applies) and, unrolled, more.
      e4[f] += copies * (alpha * e4[c] + (c == f ? e0[c] : 0.0));
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
    if (dead) {
      t.s3 += 1;
      continue;
    }
    t.s0 += e0[f];
    t.s1 += e1[f];
    t.s2 += e2[f];
    t.s4 += e4[f];
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

namespace {

// Text bytes from the size's terms (cost_model.hpp's formula; estimates and fits both use it).
double modelled_size(const CostModel& m, const ProgramModel::Terms& t) {
  return t.s0 - m.call_bytes * t.s1 - m.const_arg_bytes * t.s2 - m.function_bytes * t.s3 +
         m.recursive_growth * t.s4;
}

}  // namespace

Estimate ProgramModel::estimate(const CostModel& m, const Decisions& d) const {
  if (d.size() != program_->sites.size())
    throw ConfigError("decisions for " + std::to_string(d.size()) + " sites; " + program_->name +
                      " has " + std::to_string(program_->sites.size()));
  const Terms t = terms(m.alpha, d);
  return {modelled_size(m, t),
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

// The size's terms of every sample at one alpha.
std::vector<ProgramModel::Terms> size_terms(const std::vector<const ProgramModel*>& programs,
                                            const std::vector<CalibrationSample>& samples,
                                            double alpha) {
  std::vector<ProgramModel::Terms> out;
  out.reserve(samples.size());
  for (const CalibrationSample& s : samples)
    out.push_back(programs[s.program]->terms(alpha, s.decisions));
  return out;
}

// The smallest of the programs' Spearman correlations of modelled and measured size.
double worst_size_rank(const CostModel& m, const std::vector<ProgramModel::Terms>& terms,
                       const std::vector<CalibrationSample>& samples, std::size_t programs) {
  std::vector<std::vector<double>> model(programs), real(programs);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    model[samples[i].program].push_back(modelled_size(m, terms[i]));
    real[samples[i].program].push_back(samples[i].text_bytes);
  }
  double worst = 1;
  for (std::size_t p = 0; p < programs; ++p) {
    if (real[p].size() > 2) worst = std::min(worst, spearman(model[p], real[p]));
  }
  return worst;
}

// Least squares on relative errors for each alpha of a grid.
CostModel size_by_least_squares(const std::vector<const ProgramModel*>& programs,
                                const std::vector<CalibrationSample>& samples) {
  CostModel best;
  double best_residual = std::numeric_limits<double>::infinity();
  for (int step = 0; step <= 32; ++step) {
    const double alpha = 0.2 + 0.05 * step;
    const std::vector<ProgramModel::Terms> terms = size_terms(programs, samples, alpha);
    const auto n = static_cast<Eigen::Index>(samples.size());
    Eigen::MatrixXd a(n, 4);
    Eigen::VectorXd b(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      const auto k = static_cast<std::size_t>(i);
      const ProgramModel::Terms& t = terms[k];
      a.row(i) << -t.s1, -t.s2, -t.s3, t.s4;
      a.row(i) /= samples[k].text_bytes;
      b(i) = (samples[k].text_bytes - t.s0) / samples[k].text_bytes;
    }
    const Eigen::VectorXd x = least_squares(a, b);
    const double residual = (a * x - b).squaredNorm();
    if (residual < best_residual) {
      best_residual = residual;
      best.alpha = alpha;
      best.call_bytes = x(0);
      best.const_arg_bytes = x(1);
      best.function_bytes = x(2);
      best.recursive_growth = x(3);
    }
  }
  return best;
}

// The grid's parameters that rank every program's sets best (the smallest Spearman largest):
// what the env needs of the model is the order of decision sets, not their bytes.
CostModel size_by_ranks(const std::vector<const ProgramModel*>& programs,
                        const std::vector<CalibrationSample>& samples, double* worst) {
  CostModel best;
  *worst = -2;
  for (const double alpha : {0.7, 0.8, 0.9, 1.0}) {
    const std::vector<ProgramModel::Terms> terms = size_terms(programs, samples, alpha);
    CostModel m;
    m.alpha = alpha;
    for (const double call : {0, 8, 16, 24, 32, 48}) {
      for (const double const_arg : {0, 2, 8, 16}) {
        for (const double function : {0, 16, 32, 48, 64}) {
          for (const double recursive : {0.0, 0.5, 1.0, 1.5, 2.0}) {
            m.call_bytes = call;
            m.const_arg_bytes = const_arg;
            m.function_bytes = function;
            m.recursive_growth = recursive;
            const double w = worst_size_rank(m, terms, samples, programs.size());
            if (w > *worst) {
              *worst = w;
              best = m;
            }
          }
        }
      }
    }
  }
  return best;
}

}  // namespace

CostModel fit_cost_model(const std::vector<const ProgramModel*>& programs,
                         const std::vector<CalibrationSample>& samples) {
  if (samples.empty()) return {};
  CostModel best = size_by_least_squares(programs, samples);
  double ranked_worst = 0;
  const CostModel ranked = size_by_ranks(programs, samples, &ranked_worst);
  const double squares_worst =
      worst_size_rank(best, size_terms(programs, samples, best.alpha), samples, programs.size());
  if (ranked_worst > squares_worst + 0.01) best = ranked;
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
  fit.size_pairs = pair_order(ms, rs, kPairGap);
  fit.instructions_pairs = pair_order(mi, ri, kPairGap);
  if (!rs.empty()) fit.size_error /= static_cast<double>(rs.size());
  if (!ri.empty()) fit.instructions_error /= static_cast<double>(ri.size());
  return fit;
}

}  // namespace sysgym::inlining
