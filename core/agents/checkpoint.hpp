// Pieces of a training checkpoint shared by the agents: the state that makes a resumed run
// continue where it stopped (generator, networks with their shapes checked).
#pragma once

#include <nlohmann/json.hpp>

#include "agents/mlp.hpp"
#include "base/rng.hpp"

namespace sysgym::agents {

nlohmann::json rng_to_json(const Rng& rng);
// Throws ConfigError when `j` is not four 64-bit words.
void load_rng(const nlohmann::json& j, Rng& rng);
// Replaces `network` by the one in `j`; throws ConfigError naming `what` when the layer sizes
// differ (a checkpoint of another architecture).
void load_network(const nlohmann::json& j, Mlp& network, const char* what);

}  // namespace sysgym::agents
