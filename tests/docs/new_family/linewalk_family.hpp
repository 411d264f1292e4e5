// The line walk's registration as a built-in family: the file a family `foo` puts in
// core/foo/foo_family.hpp. tests/docs/adding_a_family.test.mjs copies it into a scratch copy of
// the checkout, as docs/adding-a-family.md says, and builds the tool with it.
#pragma once

#include "env/family.hpp"

namespace sysgym::linewalk {

void register_family(Registry& envs, PolicyRegistry& policies,
                     const std::shared_ptr<const DataSource>& data);

}  // namespace sysgym::linewalk
