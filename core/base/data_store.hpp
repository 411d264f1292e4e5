// Named data a family reads without opening files itself: the shell gives a DataSource (the
// native tool: files, native/data_files.hpp; the npm package: the bytes JS handed over with
// `sysgym.data.add(name, bytes)`, a DataStore) and each family resolves its own names over it
// (memtier: trace pairs, core/memtier/pair_source.hpp). A new family needs no change in a shell
// to read its data.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

namespace sysgym {

// Bytes and what keeps them alive (a string in memory, a mapped file).
struct DataBytes {
  std::span<const std::uint8_t> bytes;
  std::shared_ptr<const void> owner;
};

class DataSource {
 public:
  virtual ~DataSource() = default;
  virtual bool has(const std::string& name) const = 0;
  // The names that begin with `prefix`, sorted.
  virtual std::vector<std::string> names_with_prefix(const std::string& prefix) const = 0;
  // The bytes of `name`. Throws sysgym::Error (IoError, UnknownNameError) naming it.
  virtual DataBytes read(const std::string& name) const = 0;
  // Why `name` is not there, for a family's message ("no file 'x'", "no data named 'x' was
  // added").
  virtual std::string missing(const std::string& name) const = 0;
  // The prefix under which the data shipped with sysgym is named ("/src/sysgym/data/"), where a
  // family looks up bare names (memtier: real/NAME.*, synth/NAME.*); empty when there is none.
  virtual std::string shipped_prefix() const { return ""; }
};

// Named bytes held in memory, in front of an optional source behind them (the npm package under
// Node: the host's files): a name the store holds wins; any other is the source behind's.
class DataStore : public DataSource {
 public:
  // Adds or replaces `name`.
  void add(const std::string& name, std::shared_ptr<const std::string> bytes);
  void set_behind(std::shared_ptr<const DataSource> behind);
  bool has(const std::string& name) const override;
  std::vector<std::string> names_with_prefix(const std::string& prefix) const override;
  // Throws UnknownNameError when nothing named `name` was added.
  DataBytes read(const std::string& name) const override;
  std::string missing(const std::string& name) const override;
  std::string shipped_prefix() const override;

 private:
  std::shared_ptr<const std::string> find(const std::string& name) const;
  std::shared_ptr<const DataSource> behind() const;
  mutable std::mutex mutex_;
  std::shared_ptr<const DataSource> behind_;
  std::map<std::string, std::shared_ptr<const std::string>, std::less<>> entries_;
};

// The bytes of `name` in `data`; ConfigError "<context>: <what is missing>" when it has none.
DataBytes read_data(const DataSource& data, const std::string& name, const std::string& context);

// The JSON file `name` of `data`: read_data's errors, and parse_json_text's (naming the file)
// when it is not JSON.
nlohmann::json read_data_json(const DataSource& data, const std::string& name,
                              const std::string& context);

}  // namespace sysgym
