#include "files.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <mutex>
#include <set>
#include <utility>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "temporaries.hpp"

namespace sysgym::cli {

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int error = errno) {
  throw IoError(what + " " + quote(path) + ": " + std::strerror(error));
}

// The files this process has read: an output may never replace one of them.
struct InputIdentities {
  std::mutex mutex;
  std::set<std::pair<dev_t, ino_t>> files;
};
InputIdentities& inputs() {
  static InputIdentities registry;
  return registry;
}

bool is_input(const struct stat& info) {
  InputIdentities& registry = inputs();
  const std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.files.contains({info.st_dev, info.st_ino});
}

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

enum class Destination { kReplace, kWriteInPlace };

// How `path` may be written, or an IoError saying why it may not.
Destination destination_of(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) return Destination::kReplace;
    fail("cannot write", path);
  }
  if (S_ISREG(info.st_mode)) {
    if (is_input(info)) {
      throw IoError("refusing to write " + quote(path) +
                    ": it is one of this command's inputs (choose another output path)");
    }
    return Destination::kReplace;
  }
  if (S_ISCHR(info.st_mode) || S_ISFIFO(info.st_mode)) return Destination::kWriteInPlace;
  const char* kind = S_ISDIR(info.st_mode)    ? "a directory"
                     : S_ISSOCK(info.st_mode) ? "a socket"
                     : S_ISBLK(info.st_mode)  ? "a block device"
                                              : "not a regular file";
  throw IoError("cannot write " + quote(path) + ": it is " + kind +
                " (outputs are regular files, a character device such as /dev/null, or a FIFO)");
}

// A device or FIFO cannot be replaced, only written: what the user asked for by naming it.
void write_in_place(const OutputFile& file) {
  const int fd = ::open(file.path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open", file.path);
  try {
    write_all(fd, file.bytes, file.path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) fail("cannot write", file.path);
}

// Exclusive flock()s on directories, taken in a fixed order (no two sets can deadlock).
class DirectoryLocks {
 public:
  explicit DirectoryLocks(const std::set<std::string>& directories) {
    for (const std::string& directory : directories) {
      const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      if (fd < 0) continue;  // unreadable: the renames still work, only unserialised
      while (::flock(fd, LOCK_EX) != 0 && errno == EINTR) {
      }
      fds_.push_back(fd);
    }
  }
  ~DirectoryLocks() {
    for (const int fd : fds_)
      ::close(fd);  // releases the lock
  }
  DirectoryLocks(const DirectoryLocks&) = delete;
  DirectoryLocks& operator=(const DirectoryLocks&) = delete;

 private:
  std::vector<int> fds_;
};

}  // namespace

void write_all(int fd, std::span<const std::uint8_t> bytes, const std::string& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t put = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) fail("cannot write", path);
    done += static_cast<std::size_t>(put);
  }
}

MappedFile::MappedFile(const std::string& path) {
  // O_NONBLOCK: opening a FIFO without a writer must not wait; it is refused below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) fail("cannot open", path);
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int saved = errno;
    ::close(fd);
    fail("cannot stat", path, saved);
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    throw IoError(quote(path) + " is not a regular file" +
                  (S_ISDIR(info.st_mode) ? " (it is a directory)" : ""));
  }
  {
    InputIdentities& registry = inputs();
    const std::lock_guard<std::mutex> lock(registry.mutex);
    registry.files.insert({info.st_dev, info.st_ino});
  }
  size_ = static_cast<std::size_t>(info.st_size);
  if (size_ > 0) {
    void* mapped = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (mapped == MAP_FAILED) {
      const int saved = errno;
      ::close(fd);
      fail("cannot map", path, saved);
    }
    data_ = static_cast<const std::uint8_t*>(mapped);
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
}

void write_files_atomically(const std::vector<OutputFile>& files) {
  std::vector<Destination> kinds;
  kinds.reserve(files.size());
  for (const OutputFile& file : files)
    kinds.push_back(destination_of(file.path));

  std::vector<std::unique_ptr<TemporaryFile>> temporaries(files.size());
  std::set<std::string> directories;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (kinds[i] != Destination::kReplace) continue;
    auto temporary = std::make_unique<TemporaryFile>(files[i].path);
    if (!temporary->created()) fail("cannot create a temporary file next to", files[i].path);
    write_all(temporary->fd(), files[i].bytes, files[i].path);
    ::fchmod(temporary->fd(), 0644);
    if (!temporary->close()) fail("cannot write", files[i].path);
    directories.insert(directory_of(files[i].path));
    temporaries[i] = std::move(temporary);
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (kinds[i] == Destination::kWriteInPlace) write_in_place(files[i]);
  }
  const DirectoryLocks locks(directories);
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!temporaries[i]) continue;
    if (::rename(temporaries[i]->path().c_str(), files[i].path.c_str()) != 0)
      fail("cannot write", files[i].path);
    temporaries[i]->release();
  }
}

void check_output_path(const std::string& path) {
  if (path.empty()) throw IoError("cannot write '': the path is empty");
  if (destination_of(path) == Destination::kWriteInPlace) return;
  const std::string directory = directory_of(path);
  struct stat info {};
  if (::stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) {
    throw IoError("cannot write " + quote(path) + ": its folder " + quote(directory) +
                  " does not exist");
  }
  if (::access(directory.c_str(), W_OK | X_OK) != 0) {
    throw IoError("cannot write " + quote(path) + ": its folder " + quote(directory) +
                  " is not writable");
  }
}

void write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes) {
  write_files_atomically({{path, bytes}});
}

void write_file_atomically(const std::string& path, const std::string& text) {
  write_file_atomically(path, std::span<const std::uint8_t>(
                                  reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

void check_standard_output() {
  std::cout.flush();
  const bool stream_failed = std::cout.fail();
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0 || stream_failed) {
    const int error = errno;
    throw IoError(std::string("cannot write standard output") +
                  (error != 0 ? std::string(": ") + std::strerror(error) : std::string()));
  }
}

bool stderr_is_terminal() {
  return ::isatty(STDERR_FILENO) == 1;
}
bool stdout_is_terminal() {
  return ::isatty(STDOUT_FILENO) == 1;
}

}  // namespace sysgym::cli
