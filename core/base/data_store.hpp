// Named bytes that the core reads data from without opening files: what a shell hands over (the
// npm package's `sysgym.data.add(name, bytes)`). A family resolves its own names over it
// (memtier: trace pairs, core/memtier/pair_names.hpp).
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sysgym {

class DataStore {
 public:
  // Adds or replaces `name`.
  void add(const std::string& name, std::shared_ptr<const std::string> bytes);
  // The bytes of `name`, or null when the store has none.
  std::shared_ptr<const std::string> find(const std::string& name) const;
  // The names that begin with `prefix`, sorted.
  std::vector<std::string> names_with_prefix(const std::string& prefix) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const std::string>, std::less<>> entries_;
};

}  // namespace sysgym
