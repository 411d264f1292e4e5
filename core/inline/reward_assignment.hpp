// Reward assignment ("Inlining ML with ML"): which single decisions made the explored decision
// sets better or worse. Annealing evaluates hundreds of sets, each a mutation of one before it;
// a linear regression (ridge or lasso) of each mutation's change of cost on the bits it flipped
// (+1 a site now inlined, -1 one no longer) gives each site a coefficient: what inlining it adds
// to the relative cost near the explored sets. Regressing the changes rather than the costs
// themselves matters: along an annealing run the bits are step functions of time, so strongly
// collinear, and their raw coefficients came out with arbitrary signs (labels worse than the
// sets they came from). A decision copies its callee's body with the decisions taken inside it,
// so its credit also takes theirs, decayed by depth (FYP decayed a decision's subtree in the
// inlining tree the same way):
//
//   credit(s) = coefficient(s) + decay x sum over the callee's sites d inlined in the best set of
//               credit(d)
//
// A site no mutation flipped has no coefficient and no label; the others are labelled "inline"
// when their credit is below -margin, "keep" above +margin (within, no label: the set it falls
// back to decides).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "inline/anneal.hpp"
#include "inline/cost_model.hpp"
#include "inline/decisions.hpp"

namespace sysgym::inlining {

enum class Regression { kRidge, kLasso };

struct AssignmentOptions {
  Regression method = Regression::kRidge;
  double lambda = 1e-3;  // penalty; ridge: on squared, lasso: on absolute coefficients
  double decay = 0.5;    // share of the callee's decisions' credit a decision takes, in [0, 1]
  double margin = 0;     // |credit| a label needs
};

// The sets annealing evaluated (anneal with record), several runs appended.
struct Exploration {
  std::vector<Decisions> sets;
  std::vector<double> costs;
  std::vector<std::size_t> parent;  // the set each was mutated from (a start: itself)
  void append(AnnealResult run);
};

enum class Label : std::int8_t { kNone = -1, kKeep = 0, kInline = 1 };

struct RewardAssignment {
  std::vector<double> coefficient;  // per site; 0 for a site never varied
  std::vector<double> credit;       // per site, with the callee's decisions decayed in
  std::vector<Label> label;         // per site
  std::size_t varied = 0;           // sites some mutation flipped
  std::size_t mutations = 0;        // rows of the regression
  double r_squared = 0;             // of the regression on the mutations' changes of cost
};

// Costs are lower-is-better; `best` holds the decisions a callee's body is credited with. Throws
// ConfigError for an exploration without a mutation, sizes that do not match the program or
// options out of range.
RewardAssignment assign_rewards(const ProgramModel& program, const Exploration& explored,
                                const Decisions& best, const AssignmentOptions& options);

// The labels applied to `fallback`: labelled sites take their label, the others keep their bit.
Decisions labelled_decisions(const RewardAssignment& assignment, const Decisions& fallback);

Regression regression_from_name(const std::string& name);  // "ridge" or "lasso"

}  // namespace sysgym::inlining
