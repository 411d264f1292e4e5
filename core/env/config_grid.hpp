// `--vary KEY=V1,V2,...` (or KEY=[JSON array] when a value holds a comma), as train and eval take
// it in both shells: one config per combination, the last key varying fastest, each value typed
// by the env's schema.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "env/registry.hpp"

namespace sysgym {

// `base` with every combination of the varied keys over it (just `base` when none vary).
// Throws ConfigError / UnknownNameError naming --vary.
std::vector<nlohmann::json> config_grid(const EnvSpec& spec, const nlohmann::json& base,
                                        const std::vector<std::string>& vary);

}  // namespace sysgym
