// Named data a family resolves its names over (memtier: trace pairs, resolve_pair_names in
// core/memtier/pair_source.hpp): files natively (native/ lists folders), and in the npm package
// the bytes JS hands over (`sysgym.data.add(name, bytes)`), held by a DataStore.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sysgym {

// The names there are, without their bytes: what resolving a name needs.
class DataNames {
 public:
  virtual ~DataNames() = default;
  virtual bool has(const std::string& name) const = 0;
  // The names that begin with `prefix`, sorted.
  virtual std::vector<std::string> names_with_prefix(const std::string& prefix) const = 0;
};

// Named bytes the core reads without opening files.
class DataStore : public DataNames {
 public:
  // Adds or replaces `name`.
  void add(const std::string& name, std::shared_ptr<const std::string> bytes);
  // The bytes of `name`, or null when the store has none.
  std::shared_ptr<const std::string> find(const std::string& name) const;
  bool has(const std::string& name) const override { return find(name) != nullptr; }
  std::vector<std::string> names_with_prefix(const std::string& prefix) const override;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const std::string>, std::less<>> entries_;
};

}  // namespace sysgym
