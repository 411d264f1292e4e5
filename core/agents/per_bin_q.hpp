// Q-values for discrete actions over entities (EntityLayout: action 0 changes nothing, verb v on
// bin i is action 1 + v*B + i; memtier: keep, promote, demote) from two networks: a value network
// over the whole (normalised) observation and an advantage network shared by every bin
// (bin_view.hpp features, one output per verb).
//
//   Q(s, nothing) = V(s),  Q(s, verb v on bin i) = V(s) + A(f_i)[v]
//
// Why: the dense Q-network learns what promoting bin 17 of the training traces is worth; this
// one learns what promoting a bin this hot, this recently, with this much room is worth, which
// carries over to traces it never saw.
#pragma once

#include <Eigen/Dense>
#include <span>
#include <vector>

#include "agents/bin_view.hpp"
#include "agents/mlp.hpp"
#include "agents/normalizer.hpp"

namespace sysgym::agents {

// Q for one observation in fixed-order arithmetic (the same in every build); q gets V*B+1 values.
void per_bin_q_values(const BinView& view, const Mlp& advantage, const Mlp& value,
                      const ObservationNormalizer& normalizer, std::span<const float> observation,
                      std::vector<double>& q);

// Batched: advantages V x (m * B) (observation-major), values 1 x m -> Q (V*B+1) x m.
Eigen::MatrixXd compose_q(const Eigen::MatrixXd& advantages, const Eigen::MatrixXd& values,
                          int bins);
// The gradients of the two networks' outputs from the gradient of Q (V*B+1) x m.
void split_q_gradient(const Eigen::MatrixXd& grad_q, int bins, Eigen::MatrixXd& grad_advantages,
                      Eigen::MatrixXd& grad_values);

}  // namespace sysgym::agents
