#include "trace_names.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "base/error.hpp"
#include "base/names.hpp"
#include "base/quote.hpp"
#include "memtier/pair_source.hpp"

namespace sysgym::cli {
namespace {

namespace fs = std::filesystem;

const char* const kShippedFolders[] = {"real", "synth"};

// The files there are, for the core's resolver of trace names: a name is a path; the names with
// a prefix are the files in the prefix's folder whose names begin with its last part, written
// with the prefix's own folder text ("x" finds "x.ddr.csv", "d/x" finds "d/x.ddr.csv").
class Files : public DataNames {
 public:
  bool has(const std::string& name) const override {
    std::error_code error;
    return fs::is_regular_file(name, error);
  }
  std::vector<std::string> names_with_prefix(const std::string& prefix) const override {
    const fs::path path(prefix);
    const std::string stem = path.filename().string();
    const std::string folder = prefix.substr(0, prefix.size() - stem.size());
    std::error_code error;
    std::vector<std::string> found;
    for (const fs::directory_entry& entry :
         fs::directory_iterator(folder.empty() ? fs::path(".") : fs::path(folder), error)) {
      const std::string file = entry.path().filename().string();
      if (file.rfind(stem, 0) == 0 && entry.is_regular_file(error)) found.push_back(folder + file);
    }
    std::sort(found.begin(), found.end());
    return found;
  }
};

PairFiles files_of(const memtier::PairNames& names) {
  return {names.prepared, names.ddr, names.hbm};
}

}  // namespace

fs::path shipped_data_dir() {
  if (const char* given = std::getenv("SYSGYM_DATA"); given != nullptr && *given != '\0')
    return given;
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (error) return {};
  for (const fs::path& candidate :
       {exe.parent_path().parent_path().parent_path() / "data", exe.parent_path() / "data"}) {
    if (fs::is_directory(candidate / "real", error)) return candidate;
  }
  return {};
}

std::vector<std::string> shipped_pair_names() {
  const fs::path data = shipped_data_dir();
  if (data.empty()) return {};
  std::set<std::string> names;
  std::error_code error;
  for (const char* folder : kShippedFolders) {
    for (const fs::directory_entry& entry : fs::directory_iterator(data / folder, error)) {
      const std::string file = entry.path().filename().string();
      const std::size_t at = file.find(".ddr.");
      if (at != std::string::npos && at > 0) names.insert(file.substr(0, at));
    }
  }
  return {names.begin(), names.end()};
}

PairFiles find_pair_files(const std::string& name) {
  const Files files;
  if (!name.empty()) {
    if (const memtier::PairNames names = memtier::resolve_pair_names(files, name); names.found())
      return files_of(names);
  }
  const bool bare = name.find('/') == std::string::npos;
  const fs::path data = shipped_data_dir();
  if (bare && !name.empty() && !data.empty()) {
    for (const char* folder : kShippedFolders) {
      const memtier::PairNames names =
          memtier::resolve_pair_names(files, (data / folder / name).string());
      if (names.found()) return files_of(names);
    }
  }
  const std::vector<std::string> shipped = shipped_pair_names();
  std::string message = "trace " + quote(name) + ": no such file, and no " + name + ".ddr.* + " +
                        name + ".hbm.* pair";
  if (bare) message += ", and no shipped pair of that name";
  if (!shipped.empty()) {
    const std::string closest = bare ? closest_name(name, shipped) : "";
    if (!closest.empty()) message += "; did you mean " + quote(closest) + "?";
    message += " (shipped: " + join(shipped, ", ") + ")";
  }
  throw IoError(message + "; also DDR_FILE,HBM_FILE, a preprocessed PAIR.bin or synth:PATTERN");
}

}  // namespace sysgym::cli
