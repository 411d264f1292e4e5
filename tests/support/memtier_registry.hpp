// memtier-v0 registered alone, for tests and benchmarks of agents that need one real env.
#pragma once

#include "env/registry.hpp"
#include "memtier/memtier_env.hpp"
#include "support/small_source.hpp"

namespace sysgym::testing {

// memtier-v0 alone, on synth_source(): what agents' tests and benchmarks train on.
inline const Registry& memtier_registry() {
  static const Registry registry = [] {
    Registry out;
    memtier::register_memtier(out, synth_source());
    return out;
  }();
  return registry;
}

}  // namespace sysgym::testing
