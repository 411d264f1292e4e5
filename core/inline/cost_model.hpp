// Model mode: what a set of decisions does to a program's text size and instruction count,
// estimated from the program file alone (no compiler), in both builds.
//
//   size of f  = its bytes with nothing inlined + for each site of f inlined:
//                copies x (alpha x size of the callee - call_bytes - const_arg_bytes x constant
//                args), + recursive_growth x the callee's size when f calls itself (bottom-up: a
//                callee's size includes what was inlined into it)
//   text       = the never-inlined text + the growth of every live function - for every static
//                function whose calls were all inlined (and that has no other use) its bytes and
//                function_bytes more (its alignment, prologue and epilogue)
//   instructions = the never-inlined count - for each site inlined, its dynamic calls x
//                (call_instr + const_arg_instr x constant args + simplified_instr x instructions
//                the inline-cost analysis simplified) + growth_instr x its calls x callee KiB
//
// callgrind counts instructions, not cycles, so i-cache misses cost nothing here; growth_instr
// stands for what larger bodies add to every call (spills, lost specialisation). The parameters
// are fitted to real-mode measurements (fit_cost_model; `sysgym inline calibrate`).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/rank_stats.hpp"
#include "inline/decisions.hpp"
#include "inline/program.hpp"

namespace sysgym::inlining {

// The size defaults are `sysgym inline calibrate`'s rank fit over the shipped programs (the
// docs/envs/inline.md's table); the instruction defaults are hand-set (the least-squares fit lowers
// errors, not ranks).
struct CostModel {
  double alpha = 0.9;
  double call_bytes = 24;
  double const_arg_bytes = 8;
  double function_bytes = 32;
  double recursive_growth = 1.5;
  double call_instr = 8;
  double const_arg_instr = 1;
  double simplified_instr = 0.5;
  double growth_instr = 0;

  nlohmann::json to_json() const;
  // Keys left out keep their defaults; ConfigError names an unknown key or a negative value.
  static CostModel from_json(const nlohmann::json& j, const std::string& what);
};

struct Estimate {
  double text_bytes = 0;
  double instructions = 0;
};

// What the model needs of a program, computed once (bottom-up order, per-site counts).
class ProgramModel {
 public:
  explicit ProgramModel(const Program& program);
  Estimate estimate(const CostModel& model, const Decisions& decisions) const;
  const Program& program() const { return *program_; }
  // The instructions measured with no site inlined (0 when the file has no such measurement).
  double never_instructions() const { return never_instructions_; }
  // The sites to decide in MLGO's order: a function's sites before its callers' (callees first),
  // each function's in its instruction order; sites clang never inlines are no decision.
  const std::vector<std::size_t>& bottom_up_sites() const { return bottom_up_; }
  // The decisions as clang applies them: copies of one call in always_inline bodies are one
  // decision where the call was written (base_location), inlined when any copy is asked to be;
  // a site clang never inlines stays a call.
  Decisions as_compiled(const Decisions& d) const;
  // The site whose decision `site` follows: itself, or the copy where its call was written.
  std::size_t decided_at(std::size_t site) const { return written_at_[site]; }

  // The size as S0 - call_bytes x S1 - const_arg_bytes x S2 - function_bytes x S3 +
  // recursive_growth x S4 for a fixed alpha (the model is affine in them for a given alpha), and
  // the instructions' terms; for fitting.
  struct Terms {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0;
    double calls = 0, const_calls = 0, simplified_calls = 0, growth_calls = 0;
  };
  Terms terms(double alpha, const Decisions& decisions) const;

 private:
  const Program* program_;
  std::vector<std::vector<std::size_t>> sites_of_;  // per function, its sites
  std::vector<std::size_t> order_;                  // functions, callees before callers
  std::vector<std::size_t> bottom_up_;
  std::vector<double> const_args_;  // per site
  std::vector<double> simplified_;  // per site
  std::vector<bool> deletable_;     // per function: static, every use a located direct call
  std::vector<std::vector<std::size_t>> calls_to_;  // per function, the sites calling it
  double other_text_ = 0;                // text that is no function's (constants, startup code)
  double never_instructions_ = 0;        // measured with no site inlined
  std::vector<std::size_t> written_at_;  // per site, the first site of its copies
  bool shared_decisions_ = false;        // some call has copies
};

enum class Objective { kSize, kInstructions, kMix };

// What the env and the tools minimise: text bytes, instructions, or size_weight x the one +
// (1 - size_weight) x the other, each relative to the baseline decisions' estimate.
struct Scoring {
  CostModel model;
  Objective objective = Objective::kSize;
  double size_weight = 0.5;
  Estimate baseline;
  double size_limit = 0;  // > 0: text over this share of the baseline's costs 10x the excess
};
double relative_cost(const ProgramModel& program, const Scoring& scoring,
                     const Decisions& decisions);

struct CalibrationSample {
  std::size_t program = 0;  // index into the programs fitted
  Decisions decisions;
  double text_bytes = 0;
  double instructions = 0;  // 0 when not run
};

// Size: least squares on relative errors (alpha by a grid, the rest by the normal equations),
// replaced by the best of a grid on ranks (the smallest Spearman over the programs, made largest)
// when that ranks clearly better. Instructions: least squares.
CostModel fit_cost_model(const std::vector<const ProgramModel*>& programs,
                         const std::vector<CalibrationSample>& samples);

// How the model orders pairs of sets that real mode tells apart by more than this: the goal's
// size budget, and about the spread that code generation gives lz4's sets which inline all its
// hot calls (their order follows no single decision).
inline constexpr double kPairGap = 0.05;

// Spearman's rank correlation of model and measurement over `samples` (of one program or all),
// for text size and for instructions (samples without instructions left out), and how it orders
// the pairs real mode tells apart by more than kPairGap.
struct Fit {
  double size_spearman = 0;
  double instructions_spearman = 0;
  double size_error = 0;  // mean |model - real| / real
  double instructions_error = 0;
  PairOrder size_pairs;
  PairOrder instructions_pairs;
};
Fit model_fit(const CostModel& model, const std::vector<const ProgramModel*>& programs,
              const std::vector<CalibrationSample>& samples);

}  // namespace sysgym::inlining
