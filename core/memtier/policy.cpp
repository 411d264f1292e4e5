#include "memtier/policy.hpp"

#include <algorithm>

#include "base/error.hpp"
#include "base/names.hpp"

namespace sysgym::memtier {

void PolicyRegistry::add(PolicySpec spec) {
  if (specs_.count(spec.name) != 0)
    throw ApiMisuseError("policy '" + spec.name + "' is registered twice");
  std::string name = spec.name;
  specs_.emplace(std::move(name), std::move(spec));
}

const PolicySpec& PolicyRegistry::spec(const std::string& name) const {
  const auto it = specs_.find(name);
  if (it == specs_.end()) throw UnknownNameError(unknown_name_message("policy", name, names()));
  return it->second;
}

std::unique_ptr<Policy> PolicyRegistry::make(const std::string& name,
                                             const nlohmann::json& config) const {
  return spec(name).factory(config);
}

std::vector<std::string> PolicyRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [name, spec] : specs_)
    out.push_back(name);
  return out;
}

std::vector<std::string> PolicyRegistry::standalone_names() const {
  std::vector<std::string> out;
  for (const auto& [name, spec] : specs_)
    if (!spec.needs_parameters) out.push_back(name);
  return out;
}

void register_builtin_policies(PolicyRegistry& registry) {
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
  for (std::uint32_t id : pages) {
    const std::uint64_t lo = env.pair().pages[id];
    if (!out.empty() && out.back().hi == lo) {
      out.back().hi = lo + page;
    } else {
      out.push_back({lo, lo + page});
    }
  }
}

}  // namespace sysgym::memtier
