#include "agents/collective.hpp"

#include <vector>

#include "agents/mlp.hpp"

namespace sysgym::agents {

void average_gradients(Collective& collective, Mlp& network) {
  std::vector<double> packed;
  packed.reserve(network.parameter_count());
  for (const DenseLayer& layer : network.layers()) {
    packed.insert(packed.end(), layer.grad_w.data(), layer.grad_w.data() + layer.grad_w.size());
    packed.insert(packed.end(), layer.grad_b.data(), layer.grad_b.data() + layer.grad_b.size());
  }
  collective.sum(packed);
  const double scale = 1.0 / collective.size();
  const double* next = packed.data();
  for (DenseLayer& layer : network.layers()) {
    for (Eigen::Index i = 0; i < layer.grad_w.size(); ++i)
      layer.grad_w.data()[i] = *next++ * scale;
    for (Eigen::Index i = 0; i < layer.grad_b.size(); ++i)
      layer.grad_b.data()[i] = *next++ * scale;
  }
}

}  // namespace sysgym::agents
