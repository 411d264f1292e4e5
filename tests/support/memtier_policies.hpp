// The generic and memtier policies in one registry, built once per test binary.
#pragma once

#include "env/policy.hpp"
#include "memtier/policy.hpp"

namespace sysgym::testing {

inline const PolicyRegistry& memtier_policies() {
  static const PolicyRegistry registry = [] {
    PolicyRegistry r;
    register_generic_policies(r);
    memtier::register_memtier_policies(r);
    return r;
  }();
  return registry;
}

}  // namespace sysgym::testing
