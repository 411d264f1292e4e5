#include "builtins/builtins.hpp"

#include "memtier/memtier_env.hpp"

namespace sysgym {

void register_builtins(Registry& registry, std::shared_ptr<memtier::PairSource> traces) {
  memtier::register_memtier(registry, std::move(traces));
}

}  // namespace sysgym
