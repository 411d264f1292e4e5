// What synchronous data-parallel training asks of the processes (ranks) it runs on: element-wise
// sums that every rank receives identically. Core stays free of MPI; the native shell implements
// this over MPI (native/distributed), and a single process is the absence of one.
#pragma once

#include <span>

namespace sysgym::agents {

class Collective {
 public:
  virtual ~Collective() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Replaces `values` on every rank by their element-wise sum over all ranks; every rank must
  // call it with the same number of values, in the same order of calls, and gets the same bits.
  virtual void sum(std::span<double> values) = 0;
};

// Replaces every layer's gradients by their mean over the ranks (one sum of all of them).
class Mlp;
void average_gradients(Collective& collective, Mlp& network);

}  // namespace sysgym::agents
