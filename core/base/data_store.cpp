#include "base/data_store.hpp"

#include "base/error.hpp"
#include "base/quote.hpp"

namespace sysgym {

void DataStore::add(const std::string& name, std::shared_ptr<const std::string> bytes) {
  const std::lock_guard<std::mutex> lock(mutex_);
  entries_[name] = std::move(bytes);
}

std::shared_ptr<const std::string> DataStore::find(const std::string& name) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = entries_.find(name);
  return it == entries_.end() ? nullptr : it->second;
}

bool DataStore::has(const std::string& name) const {
  return find(name) != nullptr;
}

std::vector<std::string> DataStore::names_with_prefix(const std::string& prefix) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (auto it = entries_.lower_bound(prefix);
       it != entries_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
    names.push_back(it->first);
  }
  return names;
}

DataBytes DataStore::read(const std::string& name) const {
  std::shared_ptr<const std::string> bytes = find(name);
  if (!bytes) throw UnknownNameError(missing(name));
  return {{reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size()}, bytes};
}

std::string DataStore::missing(const std::string& name) const {
  return "no data named " + quote(name) + " was added";
}

}  // namespace sysgym
