// A mixed-integer linear program built in memory and written as CPLEX LP text, the format CBC
// (native) and HiGHS (the npm package) both read, so the two shells solve the same model.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sysgym::tensorplace {

// A linear expression: constant + sum of coefficient * variable (variables by index).
struct LinearExpr {
  double constant = 0;
  std::vector<std::pair<std::uint32_t, double>> terms;

  void add(std::uint32_t var, double coefficient) { terms.emplace_back(var, coefficient); }
  LinearExpr& add(const LinearExpr& other, double scale);
};

class LpBuilder {
 public:
  enum class Kind : std::uint8_t { kBinary, kContinuous };
  std::uint32_t add_var(std::string name, Kind kind, double lower = 0);
  const std::string& name(std::uint32_t var) const { return vars_[var].name; }
  std::size_t variables() const { return vars_.size(); }
  std::size_t binaries() const { return binaries_; }
  std::size_t rows() const { return rows_; }

  void minimise(const LinearExpr& expr);  // adds to the objective (its constant is dropped)
  // expr `sense` rhs, with expr's constant moved to the right; `sense` is "<=", ">=" or "=".
  // A row without variables is not written (false): the caller decides what it means.
  bool add_row(const std::string& name, const LinearExpr& expr, std::string_view sense, double rhs);

  // The model's text, `title` as its leading comment.
  std::string text(std::string_view title) const;

 private:
  struct Var {
    std::string name;
    Kind kind;
    double lower;
  };
  std::size_t append_terms(std::string& out, const LinearExpr& expr) const;  // terms written

  std::vector<Var> vars_;
  std::size_t binaries_ = 0;
  LinearExpr objective_;
  std::string constraints_;
  std::size_t rows_ = 0;
};

// "prefix<a>[_<b>[_<c>]]", built by appending (g++ 12 warns, wrongly, about "literal" +
// std::to_string(...): its bug 105329).
std::string lp_name(std::string_view prefix, std::size_t a);
std::string lp_name(std::string_view prefix, std::size_t a, std::size_t b);
std::string lp_name(std::string_view prefix, std::size_t a, std::size_t b, std::size_t c);

}  // namespace sysgym::tensorplace
