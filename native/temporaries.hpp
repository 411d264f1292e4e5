// The temporary files being written, known to a signal handler that deletes them before the
// process dies of the signal (see remove_temporaries_on_signal in files.hpp).
#pragma once

#include <csignal>
#include <string>

namespace sysgym::cli {

class TemporarySlot;

// Creates a temporary file next to `path` (mkstemp on "PATH.tmp-XXXXXX") and registers it for
// the lifetime of the object, with the cleanup signals held back in between so that no handler
// can miss it. A path too long for a slot, or a ninth concurrent file, goes unregistered: it is
// then only removed by the destructor. The destructor removes the file unless it was released.
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::string& path);
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  bool created() const { return exists_; }
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  // Closes the file; returns false (errno set) when the close reports a lost write.
  bool close();
  // The file was renamed away: nothing is left to remove.
  void release() { released_ = true; }

 private:
  std::string path_;
  int fd_ = -1;
  bool exists_ = false;
  bool released_ = false;
  TemporarySlot* slot_ = nullptr;
};

// Installs the handler for every signal whose default action ends the process, unless the signal
// is ignored or already handled.
void install_temporary_cleanup();

}  // namespace sysgym::cli
