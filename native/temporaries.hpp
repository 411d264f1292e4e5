// The temporary files being written, known to a signal handler that deletes them before the
// process dies of the signal (see remove_temporaries_on_signal).
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

// Handles every signal whose default action ends the process (SIGINT, SIGTERM, SIGHUP, SIGQUIT,
// SIGUSR1/2, SIGALRM, SIGXFSZ, SIGXCPU, SIGPIPE, real-time signals ...), unless it is ignored (as
// in a nohup job) or already handled (by a sanitizer), by deleting the temporary files being
// written and then dying of the same signal: the caller still sees an interrupted command and
// no .tmp- file is left next to an output.
void remove_temporaries_on_signal();

}  // namespace sysgym::cli
