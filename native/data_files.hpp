// The native tool's DataSource: a name is a file path, and the data shipped with sysgym is found
// beside the source tree the tool was built in (or in $SYSGYM_DATA). Every family reads its files
// through it (memtier: trace pairs), so a new family needs nothing here.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "base/data_store.hpp"

namespace sysgym::cli {

class FileData : public DataSource {
 public:
  bool has(const std::string& name) const override;
  // The files in the prefix's folder whose names begin with its last part, written with the
  // prefix's own folder text ("x" finds "x.ddr.csv", "d/x" finds "d/x.ddr.csv").
  std::vector<std::string> names_with_prefix(const std::string& prefix) const override;
  // The file mapped read-only (MappedFile: refuses devices, FIFOs and directories).
  DataBytes read(const std::string& name) const override;
  std::string missing(const std::string& name) const override;
  // shipped_data_dir() as a prefix ("/src/sysgym/data/"), or "" when there is none.
  std::string shipped_prefix() const override;
};

// The shipped data folder: $SYSGYM_DATA, else data/ beside the source tree the tool was built in
// (build/PRESET/sysgym -> data/). Empty when neither exists.
std::filesystem::path shipped_data_dir();

}  // namespace sysgym::cli
