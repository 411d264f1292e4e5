#include "data_files.hpp"

#include <algorithm>
#include <cstdlib>

#include "base/quote.hpp"
#include "files.hpp"

namespace sysgym::cli {

namespace fs = std::filesystem;

bool FileData::has(const std::string& name) const {
  std::error_code error;
  return !name.empty() && fs::is_regular_file(name, error);
}

std::vector<std::string> FileData::names_with_prefix(const std::string& prefix) const {
  const std::string stem = fs::path(prefix).filename().string();
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

DataBytes FileData::read(const std::string& name) const {
  auto file = std::make_shared<const MappedFile>(name);
  const std::span<const std::uint8_t> bytes = file->bytes();
  return {bytes, std::move(file)};
}

std::string FileData::missing(const std::string& name) const {
  // A FIFO or a device is there but is not data (MappedFile's words).
  std::error_code error;
  const fs::file_status status = fs::status(name, error);
  if (!error && fs::exists(status) && !fs::is_regular_file(status)) {
    return quote(name) + " is not a regular file" +
           (fs::is_directory(status) ? " (it is a directory)" : "");
  }
  return "no file " + quote(name);
}

std::string FileData::shipped_prefix() const {
  const fs::path data = shipped_data_dir();
  return data.empty() ? "" : data.string() + "/";
}

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

}  // namespace sysgym::cli
