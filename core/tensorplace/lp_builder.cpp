#include "tensorplace/lp_builder.hpp"

#include <algorithm>

#include "base/append_format.hpp"

namespace sysgym::tensorplace {

LinearExpr& LinearExpr::add(const LinearExpr& other, double scale) {
  constant += other.constant * scale;
  for (const auto& [var, coefficient] : other.terms)
    terms.emplace_back(var, coefficient * scale);
  return *this;
}

std::uint32_t LpBuilder::add_var(std::string name, Kind kind, double lower) {
  vars_.push_back({std::move(name), kind, lower});
  if (kind == Kind::kBinary) ++binaries_;
  return static_cast<std::uint32_t>(vars_.size() - 1);
}

void LpBuilder::minimise(const LinearExpr& expr) {
  objective_.add(expr, 1);
}

bool LpBuilder::add_row(const std::string& name, const LinearExpr& expr, std::string_view sense,
                        double rhs) {
  std::string row = " " + name + ":";
  if (append_terms(row, expr) == 0) return false;
  constraints_ += row;
  append_format(constraints_, " %.*s %.17g\n", static_cast<int>(sense.size()), sense.data(),
                rhs - expr.constant);
  ++rows_;
  return true;
}

// Terms of one variable are merged (LP readers reject or sum repeats inconsistently); lines are
// wrapped to keep them short.
std::size_t LpBuilder::append_terms(std::string& out, const LinearExpr& expr) const {
  std::vector<std::pair<std::uint32_t, double>> merged = expr.terms;
  std::stable_sort(merged.begin(), merged.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t written = 0;
  for (std::size_t i = 0; i < merged.size();) {
    const std::uint32_t var = merged[i].first;
    double coefficient = 0;
    for (; i < merged.size() && merged[i].first == var; ++i)
      coefficient += merged[i].second;
    if (coefficient == 0) continue;
    append_format(out, " %s %.17g %s", coefficient < 0 ? "-" : "+",
                  coefficient < 0 ? -coefficient : coefficient, vars_[var].name.c_str());
    if (++written % 8 == 0) out += "\n  ";
  }
  return written;
}

std::string LpBuilder::text(std::string_view title) const {
  std::string out = "\\ ";
  out += title;
  out += "\nMinimize\n obj:";
  append_terms(out, objective_);
  out += "\nSubject To\n";
  out += constraints_;
  out += "Bounds\n";
  for (const Var& var : vars_) {
    if (var.kind == Kind::kBinary)
      append_format(out, " 0 <= %s <= 1\n", var.name.c_str());
    else if (var.lower != 0)
      append_format(out, " %s >= %.17g\n", var.name.c_str(), var.lower);
  }
  out += "Binaries\n";
  std::size_t written = 0;
  for (const Var& var : vars_) {
    if (var.kind != Kind::kBinary) continue;
    out += written++ % 10 == 0 ? "\n " : " ";
    out += var.name;
  }
  out += "\nEnd\n";
  return out;
}

std::string lp_name(std::string_view prefix, std::size_t a) {
  std::string name(prefix);
  name += std::to_string(a);
  return name;
}
std::string lp_name(std::string_view prefix, std::size_t a, std::size_t b) {
  std::string name = lp_name(prefix, a);
  name += '_';
  name += std::to_string(b);
  return name;
}
std::string lp_name(std::string_view prefix, std::size_t a, std::size_t b, std::size_t c) {
  std::string name = lp_name(prefix, a, b);
  name += '_';
  name += std::to_string(c);
  return name;
}

}  // namespace sysgym::tensorplace
