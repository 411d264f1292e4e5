// Pieces shared by the agents' configs and constructors.
#pragma once

#include <vector>

#include "env/config_reader.hpp"

namespace sysgym::agents {

// The "hidden" key: a non-empty list of layer sizes in [1, 4096].
std::vector<int> read_hidden_sizes(ConfigReader& reader, std::vector<int> fallback);
// {inputs, hidden..., outputs}
std::vector<int> network_sizes(int inputs, const std::vector<int>& hidden, int outputs);

}  // namespace sysgym::agents
