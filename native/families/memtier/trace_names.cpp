#include "trace_names.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "base/error.hpp"
#include "base/names.hpp"
#include "base/quote.hpp"

namespace sysgym::cli {
namespace {

namespace fs = std::filesystem;

const char* const kShippedFolders[] = {"real", "synth"};

// The file of `side` ("ddr" or "hbm") for PREFIX, or "" when there is none. Of several formats
// the binary one wins (it loads fastest and is what `sysgym memtier trace` writes).
std::string side_file(const fs::path& prefix, const std::string& side) {
  const fs::path dir = prefix.has_parent_path() ? prefix.parent_path() : fs::path(".");
  const std::string stem = prefix.filename().string() + "." + side + ".";
  std::error_code error;
  std::vector<std::string> found;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind(stem, 0) == 0 && entry.is_regular_file(error)) found.push_back(file);
  }
  if (found.empty()) return "";
  std::sort(found.begin(), found.end());
  const auto binary = std::find(found.begin(), found.end(), stem + "bin");
  if (binary != found.end()) return (dir / *binary).string();
  if (found.size() > 1) {
    throw IoError("trace " + quote(prefix.string()) + ": several " + side + " traces (" +
                  join(found, ", ") + "); name the pair as DDR_FILE,HBM_FILE");
  }
  return (dir / found.front()).string();
}

bool find_prefix(const fs::path& prefix, PairFiles& files) {
  files.ddr = side_file(prefix, "ddr");
  files.hbm = side_file(prefix, "hbm");
  if (files.ddr.empty() != files.hbm.empty()) {
    throw IoError("trace " + quote(prefix.string()) + ": found " +
                  (files.ddr.empty() ? files.hbm : files.ddr) + " but no " +
                  (files.ddr.empty() ? "DDR" : "HBM") + " trace beside it (" +
                  prefix.filename().string() + (files.ddr.empty() ? ".ddr.*)" : ".hbm.*)"));
  }
  return !files.ddr.empty();
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
  PairFiles files;
  const std::size_t comma = name.find(',');
  if (comma != std::string::npos) {
    files.ddr = name.substr(0, comma);
    files.hbm = name.substr(comma + 1);
    return files;
  }
  std::error_code error;
  if (fs::is_regular_file(name, error)) {
    files.prepared = name;
    return files;
  }
  if (!name.empty() && find_prefix(name, files)) return files;
  const bool bare = name.find('/') == std::string::npos;
  const fs::path data = shipped_data_dir();
  if (bare && !name.empty() && !data.empty()) {
    for (const char* folder : kShippedFolders) {
      if (find_prefix(data / folder / name, files)) return files;
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
