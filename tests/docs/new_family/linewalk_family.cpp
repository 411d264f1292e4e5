// The line walk (tests/env/line_walk_env.hpp, copied next to this file) registered as a built-in
// family: its envs and its policy, with nothing of its own to read from the shell's data.
#include "linewalk/linewalk_family.hpp"

#include "linewalk/line_walk_env.hpp"

namespace sysgym::linewalk {

void register_family(Registry& envs, PolicyRegistry& policies,
                     const std::shared_ptr<const DataSource>& /*data*/) {
  testing::register_line_walk(envs, policies);
}

}  // namespace sysgym::linewalk
