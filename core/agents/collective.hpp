// What training across processes (ranks) asks of them: element-wise sums every rank receives
// identically (synchronous data-parallel PPO), and bytes gathered at one rank and values sent
// from it to all (Ape-X DQN's experience and weights). Core stays free of MPI; the native shell
// implements this over MPI (native/distributed), and a single process is the absence of one.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace sysgym::agents {

class Collective {
 public:
  virtual ~Collective() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Every call below is collective: every rank makes the same calls in the same order.
  //
  // Replaces `values` on every rank by their element-wise sum over all ranks; every rank passes
  // the same number of values and gets the same bits.
  virtual void sum(std::span<double> values) = 0;
  // Rank `root` receives every rank's bytes (its own included) in `all`, one after the other in
  // rank order; the other ranks' is left empty. Ranks may pass different numbers of bytes (the
  // caller's format says where each rank's end). `all` is the caller's so that its memory is
  // reused: fresh megabytes every round cost more in page faults than the copy.
  virtual void gather(std::span<const std::byte> mine, int root, std::vector<std::byte>& all) = 0;
  // Every rank's `values` become rank `root`'s; every rank passes the same number of values.
  virtual void broadcast(std::span<double> values, int root) = 0;
};

// Replaces every layer's gradients by their mean over the ranks (one sum of all of them).
class Mlp;
void average_gradients(Collective& collective, Mlp& network);

}  // namespace sysgym::agents
