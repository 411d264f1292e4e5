#include "base/data_store.hpp"

#include <set>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/quote.hpp"
#include "profiling/ops.hpp"

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

void DataStore::set_behind(std::shared_ptr<const DataSource> behind) {
  const std::lock_guard<std::mutex> lock(mutex_);
  behind_ = std::move(behind);
}

std::shared_ptr<const DataSource> DataStore::behind() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return behind_;
}

bool DataStore::has(const std::string& name) const {
  if (find(name) != nullptr) return true;
  const auto source = behind();
  return source && source->has(name);
}

std::vector<std::string> DataStore::names_with_prefix(const std::string& prefix) const {
  std::set<std::string> names;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.lower_bound(prefix);
         it != entries_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
      names.insert(it->first);
    }
  }
  if (const auto source = behind()) {
    for (std::string& name : source->names_with_prefix(prefix))
      names.insert(std::move(name));
  }
  return {names.begin(), names.end()};
}

DataBytes DataStore::read(const std::string& name) const {
  if (std::shared_ptr<const std::string> bytes = find(name)) {
    return {{reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size()}, bytes};
  }
  if (const auto source = behind()) return source->read(name);
  throw UnknownNameError(missing(name));
}

std::string DataStore::missing(const std::string& name) const {
  if (const auto source = behind()) return source->missing(name);
  return "no data named " + quote(name) + " was added";
}

std::string DataStore::shipped_prefix() const {
  const auto source = behind();
  return source ? source->shipped_prefix() : "";
}

DataBytes read_data(const DataSource& data, const std::string& name, const std::string& context) {
  if (!data.has(name)) throw ConfigError(context + ": " + data.missing(name));
  return data.read(name);
}

nlohmann::json read_data_json(const DataSource& data, const std::string& name,
                              const std::string& context) {
  const profiling::Scope scope(profiling::ops::kDataLoad);
  const DataBytes bytes = read_data(data, name, context);
  const std::string_view text(reinterpret_cast<const char*>(bytes.bytes.data()),
                              bytes.bytes.size());
  return parse_json_text(text, name);
}

}  // namespace sysgym
