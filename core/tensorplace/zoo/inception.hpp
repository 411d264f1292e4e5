// Inception v4 (Szegedy et al. 2016), 299 x 299 inputs, for the zoo: its stem, 4 Inception-A, a
// reduction, 7 Inception-B, a reduction and 3 Inception-C blocks, every convolution followed by
// batch norm and ReLU.
#pragma once

#include "tensorplace/zoo/builder.hpp"

namespace sysgym::tensorplace {

void inception_v4(GraphBuilder& b);

}  // namespace sysgym::tensorplace
