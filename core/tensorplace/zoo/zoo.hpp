// The model zoo: training iterations of published CNNs generated from their layer shapes (fp32,
// ImageNet's 1000 classes, 224 x 224 inputs, 299 x 299 for Inception v4). AutoTM's six models,
// VGG-19 and VGG-416, ResNet-50 and ResNet-200, Inception v4 and DenseNet-264 (k = 32), plus
// the published siblings whose parameter counts pin the generators down (VGG-16, ResNet-101 and
// -152, DenseNet-121, -169 and -201).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tensorplace/graph.hpp"

namespace sysgym::tensorplace {

struct ZooModel {
  std::string name;
  std::string summary;
};
const std::vector<ZooModel>& zoo_models();

// Forward, backward and SGD update of one iteration at `batch`. Throws UnknownNameError for a
// model not in the zoo, ConfigError for a batch of 0.
Graph zoo_graph(const std::string& model, std::uint32_t batch);
// The model's parameter count (weights, biases, batch-norm scales and shifts).
std::uint64_t zoo_parameters(const std::string& model);

}  // namespace sysgym::tensorplace
