// Pieces of a training checkpoint shared by the agents: the state that makes a resumed run
// continue where it stopped (generator, networks with their shapes checked).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>

#include "agents/mlp.hpp"
#include "base/rng.hpp"

namespace sysgym::agents {

nlohmann::json rng_to_json(const Rng& rng);
// Throws ConfigError when `j` is not four 64-bit words.
void load_rng(const nlohmann::json& j, Rng& rng);
// Runs `load` (an agent restoring its fields from a state); a missing or mistyped field becomes
// a ConfigError "checkpoint: <what> state is incomplete or malformed: ...", a ConfigError passes.
void load_checkpoint(const char* what, const std::function<void()>& load);
// Replaces `network` by the one in `j`; throws ConfigError naming `what` when the layer sizes
// differ (a checkpoint of another architecture).
void load_network(const nlohmann::json& j, Mlp& network, const char* what);

}  // namespace sysgym::agents
