// The inline family's registration: its env and its policies (core/builtins lists it).
#pragma once

#include "env/family.hpp"

namespace sysgym::inlining {

void register_family(Registry& envs, PolicyRegistry& policies,
                     const std::shared_ptr<const DataSource>& data);

}  // namespace sysgym::inlining
