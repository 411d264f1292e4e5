// Simulated annealing over decision sets in model mode ("Inlining ML with ML" explored its
// decisions this way over measured run times): from a start set, each step mutates the set,
// keeps a better one, and a worse one with probability exp(-(worse by) / temperature), the
// temperature falling geometrically from t_start to t_end. Its best set is the practical optimum
// the learned policies are set against. Every step is one cost-model estimate (O(sites)).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "inline/decisions.hpp"

namespace sysgym::inlining {

struct AnnealOptions {
  std::size_t steps = 300;
  double t_start = 0.04;
  double t_end = 0.001;
  std::uint64_t seed = 0;
  bool record = false;  // keep every set evaluated (reward assignment regresses on them)
};

struct AnnealResult {
  Decisions best;
  double best_cost = 0;
  double start_cost = 0;
  std::vector<double> costs;  // the current set's cost after each step
  std::size_t accepted = 0;
  // With record: the start and every proposed set, accepted or not, with its cost and the set it
  // was mutated from (an index into evaluated; the start's is its own).
  std::vector<Decisions> evaluated;
  std::vector<double> evaluated_costs;
  std::vector<std::size_t> evaluated_parent;
};

// Mutations (this project's choice): flip one site (half the steps), flip 2 to 8 sites of one
// caller, or flip one site and every site of its callee (an inlined body's own calls with it).
// `cost` is lower-is-better (the env's cost: text or instructions relative to a baseline).
AnnealResult anneal(const Program& program, const std::function<double(const Decisions&)>& cost,
                    const Decisions& start, const AnnealOptions& options);

}  // namespace sysgym::inlining
