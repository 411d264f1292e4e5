#include "inline/reward_assignment.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "base/error.hpp"
#include "base/names.hpp"

namespace sysgym::inlining {
namespace {

// The mutations: every set with its parent, as the signed bits it flipped.
struct Mutation {
  std::vector<std::pair<std::size_t, double>> flips;  // site, +1 inlined now or -1
  double change = 0;                                  // of cost
};

std::vector<Mutation> mutations_of(const Exploration& e) {
  std::vector<Mutation> out;
  for (std::size_t k = 0; k < e.sets.size(); ++k) {
    const std::size_t from = e.parent[k];
    if (from == k) continue;
    Mutation m;
    for (std::size_t s = 0; s < e.sets[k].size(); ++s) {
      if (e.sets[k][s] != e.sets[from][s]) m.flips.emplace_back(s, e.sets[k][s] ? 1.0 : -1.0);
    }
    m.change = e.costs[k] - e.costs[from];
    if (!m.flips.empty()) out.push_back(std::move(m));
  }
  return out;
}

// (1/N) |y - Xw|^2 + lambda |w|^2, solved in whichever of the primal (V x V) or dual (N x N)
// systems is smaller: annealing gives fewer sets than large programs have sites.
Eigen::VectorXd ridge(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, double lambda) {
  const double penalty = lambda * static_cast<double>(x.rows());
  if (x.cols() <= x.rows()) {
    Eigen::MatrixXd a = x.transpose() * x;
    a.diagonal().array() += penalty;
    return a.ldlt().solve(x.transpose() * y);
  }
  Eigen::MatrixXd k = x * x.transpose();
  k.diagonal().array() += penalty;
  return x.transpose() * k.ldlt().solve(y);
}

// (1/2N) |y - Xw|^2 + lambda |w|_1 by cyclic coordinate descent, until no coefficient moves by
// more than 1e-12 of the targets' scale or 1000 sweeps.
Eigen::VectorXd lasso(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, double lambda) {
  const double n = static_cast<double>(x.rows());
  Eigen::VectorXd w = Eigen::VectorXd::Zero(x.cols());
  Eigen::VectorXd residual = y;
  const Eigen::VectorXd norms = x.colwise().squaredNorm().transpose() / n;
  const double tolerance = 1e-12 * std::max(1e-300, y.cwiseAbs().maxCoeff());
  for (int sweep = 0; sweep < 1000; ++sweep) {
    double largest = 0;
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      if (norms[j] == 0) continue;
      const double rho = x.col(j).dot(residual) / n + norms[j] * w[j];
      const double shrunk = std::copysign(std::max(0.0, std::abs(rho) - lambda), rho) / norms[j];
      const double change = shrunk - w[j];
      if (change == 0) continue;
      residual -= change * x.col(j);
      w[j] = shrunk;
      largest = std::max(largest, std::abs(change));
    }
    if (largest <= tolerance) break;
  }
  return w;
}

void check(const ProgramModel& program, const Exploration& e, const Decisions& best,
           const AssignmentOptions& o) {
  const std::size_t sites = program.program().sites.size();
  if (e.sets.size() != e.costs.size() || e.sets.size() != e.parent.size())
    throw ConfigError("reward assignment: " + std::to_string(e.sets.size()) + " sets, " +
                      std::to_string(e.costs.size()) + " costs and " +
                      std::to_string(e.parent.size()) + " parents");
  for (std::size_t k = 0; k < e.sets.size(); ++k) {
    if (e.sets[k].size() != sites || e.parent[k] > k)
      throw ConfigError("reward assignment: explored set " + std::to_string(k) + " has " +
                        std::to_string(e.sets[k].size()) + " decisions for " +
                        std::to_string(sites) + " sites, or a parent after it");
  }
  if (best.size() != sites) throw ConfigError("reward assignment: the best set has another size");
  if (!(o.lambda >= 0) || !std::isfinite(o.lambda))
    throw ConfigError("reward assignment: lambda must be >= 0");
  if (!(o.decay >= 0 && o.decay <= 1))
    throw ConfigError("reward assignment: decay must be in [0, 1]");
  if (!(o.margin >= 0)) throw ConfigError("reward assignment: margin must be >= 0");
}

}  // namespace

Regression regression_from_name(const std::string& name) {
  if (name == "ridge") return Regression::kRidge;
  if (name == "lasso") return Regression::kLasso;
  throw UnknownNameError(unknown_name_message("regression", name, {"ridge", "lasso"}));
}

void Exploration::append(AnnealResult run) {
  const std::size_t offset = sets.size();
  for (std::size_t k = 0; k < run.evaluated.size(); ++k) {
    sets.push_back(std::move(run.evaluated[k]));
    costs.push_back(run.evaluated_costs[k]);
    parent.push_back(offset + run.evaluated_parent[k]);
  }
}

RewardAssignment assign_rewards(const ProgramModel& program, const Exploration& explored,
                                const Decisions& best, const AssignmentOptions& options) {
  check(program, explored, best, options);
  const Program& p = program.program();
  const std::vector<Mutation> rows = mutations_of(explored);
  if (rows.empty())
    throw ConfigError("reward assignment: the exploration holds no mutation to learn from");
  RewardAssignment out;
  out.coefficient.assign(p.sites.size(), 0.0);
  out.label.assign(p.sites.size(), Label::kNone);
  out.mutations = rows.size();
  std::vector<std::ptrdiff_t> column(p.sites.size(), -1);
  std::vector<std::size_t> varied;
  for (const Mutation& m : rows) {
    for (const auto& [site, sign] : m.flips) {
      if (column[site] >= 0) continue;
      column[site] = static_cast<std::ptrdiff_t>(varied.size());
      varied.push_back(site);
    }
  }
  std::sort(varied.begin(), varied.end());
  for (std::size_t j = 0; j < varied.size(); ++j)
    column[varied[j]] = static_cast<std::ptrdiff_t>(j);
  out.varied = varied.size();

  const Eigen::Index n = static_cast<Eigen::Index>(rows.size());
  Eigen::MatrixXd x = Eigen::MatrixXd::Zero(n, static_cast<Eigen::Index>(varied.size()));
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Mutation& m = rows[static_cast<std::size_t>(i)];
    y[i] = m.change;
    for (const auto& [site, sign] : m.flips)
      x(i, column[site]) = sign;
  }
  // No intercept: a mutation that flips nothing changes nothing.
  const Eigen::VectorXd w = options.method == Regression::kRidge ? ridge(x, y, options.lambda)
                                                                 : lasso(x, y, options.lambda);
  for (std::size_t j = 0; j < varied.size(); ++j)
    out.coefficient[varied[j]] = w[static_cast<Eigen::Index>(j)];
  const double total = y.squaredNorm();
  out.r_squared = total > 0 ? 1 - (y - x * w).squaredNorm() / total : 0;

  std::vector<std::vector<std::size_t>> sites_of(p.functions.size());
  for (std::size_t s = 0; s < p.sites.size(); ++s)
    sites_of[p.sites[s].caller].push_back(s);
  // Callees' sites first, so that a body's credits are complete before a caller copies them
  // (within a recursive cycle, the credits so far).
  out.credit = out.coefficient;
  for (std::size_t s : program.bottom_up_sites()) {
    double body = 0;
    for (std::size_t d : sites_of[p.sites[s].callee])
      body += best[d] && d != s ? out.credit[d] : 0.0;
    out.credit[s] = out.coefficient[s] + options.decay * body;
  }
  for (std::size_t s : varied) {
    if (out.credit[s] < -options.margin) out.label[s] = Label::kInline;
    if (out.credit[s] > options.margin) out.label[s] = Label::kKeep;
  }
  return out;
}

Decisions labelled_decisions(const RewardAssignment& assignment, const Decisions& fallback) {
  Decisions out = fallback;
  for (std::size_t s = 0; s < out.size() && s < assignment.label.size(); ++s) {
    if (assignment.label[s] != Label::kNone) out[s] = assignment.label[s] == Label::kInline;
  }
  return out;
}

}  // namespace sysgym::inlining
