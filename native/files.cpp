#include "files.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <optional>

#include "base/error.hpp"

namespace sysgym::cli {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  throw IoError(what + " '" + path + "': " + std::strerror(errno));
}

// The temporary files being written, where a signal handler can read them: fixed slots of plain
// memory, because a handler may only call async-signal-safe functions such as unlink().
struct TemporarySlot {
  std::atomic<bool> claimed{false};
  std::atomic<bool> live{false};  // set once `path` is complete
  std::array<char, 4096> path{};
};
std::array<TemporarySlot, 8> temporaries;

// Registers a temporary file for the lifetime of the object. A path that does not fit, or a
// ninth concurrent write, goes unregistered: its file is then only removed on errors.
class TrackedTemporary {
 public:
  explicit TrackedTemporary(const std::string& path) {
    if (path.size() >= TemporarySlot{}.path.size()) return;
    for (TemporarySlot& slot : temporaries) {
      bool expected = false;
      if (!slot.claimed.compare_exchange_strong(expected, true)) continue;
      std::memcpy(slot.path.data(), path.c_str(), path.size() + 1);
      slot.live.store(true);
      slot_ = &slot;
      return;
    }
  }
  ~TrackedTemporary() {
    if (slot_ == nullptr) return;
    slot_->live.store(false);
    slot_->claimed.store(false);
  }
  TrackedTemporary(const TrackedTemporary&) = delete;
  TrackedTemporary& operator=(const TrackedTemporary&) = delete;

 private:
  TemporarySlot* slot_ = nullptr;
};

constexpr std::array kCleanupSignals = {SIGINT, SIGTERM, SIGHUP};

// Holds the cleanup signals back for its lifetime (they are delivered when it ends).
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t held;
    sigemptyset(&held);
    for (const int signal : kCleanupSignals)
      sigaddset(&held, signal);
    ::pthread_sigmask(SIG_BLOCK, &held, &previous_);
  }
  ~SignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t previous_{};
};

extern "C" void remove_temporaries_and_die(int signal) {
  for (TemporarySlot& slot : temporaries) {
    if (slot.live.load()) ::unlink(slot.path.data());
  }
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

}  // namespace

void remove_temporaries_on_signal() {
  for (const int signal : kCleanupSignals) {
    struct sigaction previous {};
    ::sigaction(signal, nullptr, &previous);
    if (previous.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_die;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal, &action, nullptr);
  }
}

MappedFile::MappedFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open", path);
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    fail("cannot stat", path);
  }
  if (!S_ISREG(info.st_mode)) {
    ::close(fd);
    throw IoError("'" + path + "' is not a regular file");
  }
  size_ = static_cast<std::size_t>(info.st_size);
  if (size_ > 0) {
    void* mapped = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (mapped == MAP_FAILED) {
      const int saved = errno;
      ::close(fd);
      errno = saved;
      fail("cannot map", path);
    }
    data_ = static_cast<const std::uint8_t*>(mapped);
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
}

void write_file_atomically(const std::string& path, std::span<const std::uint8_t> bytes) {
  std::string temporary = path + ".tmp-XXXXXX";
  std::optional<TrackedTemporary> tracked;
  int fd = -1;
  {
    const SignalsHeld held;  // no handler may run between creating and registering the file
    fd = ::mkstemp(temporary.data());
    if (fd >= 0) tracked.emplace(temporary);
  }
  if (fd < 0) fail("cannot create a temporary file next to", path);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t put = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) {
      const int saved = errno;
      ::close(fd);
      ::unlink(temporary.c_str());
      errno = saved;
      fail("cannot write", path);
    }
    done += static_cast<std::size_t>(put);
  }
  ::fchmod(fd, 0644);
  if (::close(fd) != 0 || ::rename(temporary.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temporary.c_str());
    errno = saved;
    fail("cannot write", path);
  }
}

void write_file_atomically(const std::string& path, const std::string& text) {
  write_file_atomically(path, std::span<const std::uint8_t>(
                                  reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

bool stderr_is_terminal() {
  return ::isatty(STDERR_FILENO) == 1;
}
bool stdout_is_terminal() {
  return ::isatty(STDOUT_FILENO) == 1;
}

}  // namespace sysgym::cli
