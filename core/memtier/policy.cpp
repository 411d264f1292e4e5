#include "memtier/policy.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "memtier/page_sets.hpp"

namespace sysgym::memtier {

const MemtierEnv& MemtierPolicy::memtier_env(const Env& env) {
  const auto* memtier = dynamic_cast<const MemtierEnv*>(&env);
  if (memtier == nullptr)
    throw ApiMisuseError("a memtier policy was given " + env.id() + ", which is not a memtier env");
  return *memtier;
}

std::vector<AddressRange>& placement(Decision& out) {
  out.use_directive = true;
  auto* placement = dynamic_cast<Placement*>(out.directive.get());
  if (placement == nullptr) {
    auto made = std::make_unique<Placement>();
    placement = made.get();
    out.directive = std::move(made);
  }
  return placement->ranges;
}

void add_memtier_policy(PolicyRegistry& registry, PolicySpec spec) {
  spec.family = kFamily;
  registry.add(std::move(spec));
}

void register_memtier_policies(PolicyRegistry& registry) {
  register_static_policies(registry);
  register_oracle_policies(registry);
  register_tiering_policies(registry);
}

std::vector<std::uint32_t> resident_pages(const MemtierEnv& env) {
  std::vector<std::uint32_t> ids;
  for (const auto& [first, last] : env.memory().resident_ids()) {
    for (std::uint32_t id = first; id < last; ++id)
      ids.push_back(id);
  }
  return ids;
}

std::size_t page_slots(const MemtierEnv& env) {
  return static_cast<std::size_t>(env.capacity_bytes() / env.pair().page_bytes());
}

void ranges_of_pages(const MemtierEnv& env, std::vector<std::uint32_t> pages,
                     std::vector<AddressRange>& out) {
  out.clear();
  std::sort(pages.begin(), pages.end());
  const std::uint64_t page = env.pair().page_bytes();
  for (std::uint32_t id : pages)
    append_page(out, env.pair().pages[id], page);
}

}  // namespace sysgym::memtier
