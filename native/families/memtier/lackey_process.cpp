#include "lackey_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <utility>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "base/text_scan.hpp"
#include "files.hpp"
#include "stream_lines.hpp"

extern char** environ;

namespace sysgym::cli {
namespace {

constexpr std::size_t kPipeBytes = 1 << 20;

[[noreturn]] void fail(const std::string& what) {
  throw IoError(what + ": " + std::strerror(errno));
}

// The program's stdout on a pseudo-terminal, so that it stays line-buffered as on a terminal:
// through a plain pipe, stdio would hold markers back until 4 KiB had accumulated.
struct Terminal {
  Fd master, slave;
};

Terminal open_terminal() {
  Terminal t;
  t.master = Fd(::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (t.master.get() < 0 || ::grantpt(t.master.get()) != 0 || ::unlockpt(t.master.get()) != 0)
    fail("cannot open a pseudo-terminal for the program's output");
  t.slave = Fd(::open(::ptsname(t.master.get()), O_RDWR | O_NOCTTY | O_CLOEXEC));
  if (t.slave.get() < 0) fail("cannot open the program's pseudo-terminal");
  termios mode{};
  ::tcgetattr(t.slave.get(), &mode);
  ::cfmakeraw(&mode);  // no echo, no "\r\n" for "\n"
  ::tcsetattr(t.slave.get(), TCSANOW, &mode);
  ::fcntl(t.master.get(), F_SETFL, O_NONBLOCK);
  return t;
}

// The marker file as a named pipe for the run. What the program wrote is put back in the file
// afterwards, so the program's output is not lost.
class MarkerFifo {
 public:
  explicit MarkerFifo(std::string path) : path_(std::move(path)) {
    if (::mkfifo(path_.c_str(), 0644) != 0) {
      if (errno == EEXIST) {
        throw IoError("marker file " + quote(path_) +
                      " already exists: it becomes a pipe while the program runs, so move the "
                      "old one away first");
      }
      fail("cannot create the marker pipe " + quote(path_));
    }
    read_ = Fd(::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    // Our own writer keeps the pipe open between the program's open/close pairs (no EOF).
    write_ = Fd(::open(path_.c_str(), O_WRONLY | O_CLOEXEC));
    if (read_.get() < 0 || write_.get() < 0) {
      ::unlink(path_.c_str());
      fail("cannot open the marker pipe " + quote(path_));
    }
  }
  ~MarkerFifo() {
    read_.reset();
    write_.reset();
    ::unlink(path_.c_str());
    try {
      write_file_atomically(path_, content_);
    } catch (const Error& e) {
      std::fprintf(stderr, "sysgym: %s\n", e.what());
    }
  }
  int fd() const { return read_.get(); }
  void keep(std::string_view chunk) { content_.append(chunk); }

 private:
  std::string path_;
  Fd read_, write_;
  std::string content_;
};

// This process's children but `except`: with this process a child subreaper, the processes the
// traced program left running once it has exited. As "PID (NAME)", read from /proc.
std::vector<std::string> children_but(pid_t except) {
  std::vector<std::string> found;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string pid = entry.path().filename().string();
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat_file(entry.path() / "stat");
    std::string stat;
    if (!std::getline(stat_file, stat)) continue;  // gone meanwhile
    // "PID (NAME) STATE PPID ...": NAME may hold spaces and parentheses, the last ')' ends it.
    const std::size_t open = stat.find('('), close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open) continue;
    char state = 0;
    long parent = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %c %ld", &state, &parent) != 2) continue;
    if (parent != ::getpid() || std::stol(pid) == except || state == 'Z') continue;
    found.push_back(pid + " (" + printable(stat.substr(open + 1, close - open - 1)) + ")");
  }
  return found;
}

pid_t spawn(const LackeyProcessOptions& options, int trace_fd, int stdout_fd) {
  std::vector<std::string> argv_strings = {options.valgrind, "--tool=lackey", "--trace-mem=yes",
                                           "--log-fd=3", "--vgdb=no"};
  argv_strings.insert(argv_strings.end(), options.command.begin(), options.command.end());
  std::vector<char*> argv;
  argv.reserve(argv_strings.size() + 1);
  for (std::string& s : argv_strings)
    argv.push_back(s.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, trace_fd, 3);
  if (stdout_fd >= 0) posix_spawn_file_actions_adddup2(&actions, stdout_fd, 1);
  pid_t pid = 0;
  const int error =
      posix_spawnp(&pid, options.valgrind.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    throw IoError("cannot run " + quote(options.valgrind) + ": " + std::strerror(error) +
                  " (install valgrind)");
  }
  return pid;
}

// Kills and reaps the child unless it was reaped normally. SIGKILL, because valgrind holds
// signals while it is blocked writing its trace, and the program may catch SIGTERM.
class Child {
 public:
  explicit Child(pid_t pid) : pid_(pid) {}
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      wait();
    }
  }
  void kill() const {
    if (pid_ > 0) ::kill(pid_, SIGKILL);
  }
  pid_t pid() const { return pid_; }
  // True once the child has exited (then reaped, with its status in `status`).
  bool exited(int& status) {
    if (pid_ <= 0) return true;
    if (::waitpid(pid_, &status, WNOHANG) != pid_) return false;
    pid_ = -1;
    return true;
  }
  int wait() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return status;
  }

 private:
  pid_t pid_;
};

// Reads what is available without blocking; returns false at end of stream.
template <typename OnChunk>
bool drain(int fd, std::vector<char>& buffer, OnChunk&& on_chunk) {
  for (;;) {
    const ssize_t got = ::read(fd, buffer.data(), buffer.size());
    if (got > 0) {
      on_chunk(std::string_view(buffer.data(), static_cast<std::size_t>(got)));
      continue;
    }
    if (got < 0 && errno == EINTR) continue;
    // EIO: a pseudo-terminal whose program has exited.
    return got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }
}

// Reads the bytes the pipe holds at the call (FIONREAD), no more; false at end of stream.
template <typename OnChunk>
bool read_available(int fd, std::vector<char>& buffer, OnChunk&& on_chunk) {
  int available = 0;
  if (::ioctl(fd, FIONREAD, &available) != 0) return true;
  auto left = static_cast<std::size_t>(available);
  while (left > 0) {
    const ssize_t got = ::read(fd, buffer.data(), std::min(left, buffer.size()));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return got < 0;
    on_chunk(std::string_view(buffer.data(), static_cast<std::size_t>(got)));
    left -= static_cast<std::size_t>(got);
  }
  return true;
}

}  // namespace

LackeyOutcome run_lackey(const LackeyProcessOptions& options, LackeySink& sink,
                         const std::atomic<bool>& interrupted) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) fail("cannot create a pipe");
  Fd trace_read(fds[0]), trace_write(fds[1]);
  // A large pipe and reads of whole batches: valgrind writes each trace line with its own
  // write(), and waking the reader for every one of them triples the capture time.
  ::fcntl(trace_read.get(), F_SETPIPE_SZ, static_cast<int>(kPipeBytes));
  ::fcntl(trace_read.get(), F_SETFL, O_NONBLOCK);

  Terminal terminal;
  std::unique_ptr<MarkerFifo> fifo;
  if (options.markers == MarkerSource::kStdout) terminal = open_terminal();
  if (options.markers == MarkerSource::kFile)
    fifo = std::make_unique<MarkerFifo>(options.marker_file);
  const int output_fd = options.markers == MarkerSource::kStdout ? terminal.master.get()
                        : fifo                                   ? fifo->fd()
                                                                 : -1;

  // Processes the program leaves behind become this process's children, so that they can be
  // named when it ends (the caller may be waiting on the output they hold).
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  Child child(spawn(options, trace_write.get(), terminal.slave.get()));
  const pid_t traced = child.pid();
  trace_write.reset();
  terminal.slave.reset();

  LackeyOutcome outcome;
  std::vector<char> buffer(kPipeBytes);
  LineSplitter trace_lines, output_lines;
  auto on_trace = [&](std::string_view chunk) {
    trace_lines.feed(chunk, [&](std::string_view line) { sink.trace_line(line); });
  };
  bool output_open = output_fd >= 0;
  auto on_output = [&](std::string_view chunk) {
    if (fifo) fifo->keep(chunk);
    if (options.markers == MarkerSource::kStdout)
      std::fwrite(chunk.data(), 1, chunk.size(), stderr);
    output_lines.feed(chunk, [&](std::string_view line) {
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (!outcome.stopped && !sink.output_line(line)) outcome.stopped = true;
    });
  };
  auto last_tick = std::chrono::steady_clock::now();
  bool reaped = false;
  for (;;) {
    if (interrupted) {
      outcome.interrupted = true;
      break;
    }
    // The capture ends when the traced process does, even if children it left in the
    // background still hold the pipes open (they are not traced and keep running).
    if (child.exited(outcome.wait_status)) {
      reaped = true;
      read_available(trace_read.get(), buffer, on_trace);
      break;
    }
    pollfd polled[2] = {{trace_read.get(), POLLIN, 0}, {output_fd, POLLIN, 0}};
    ::poll(polled, output_open ? 2 : 1, 250);
    if (output_open && polled[1].revents != 0) {
      // Deliver the trace written before the marker first, so markers land where the program
      // printed them: only what the pipe holds now, as valgrind keeps writing while we read.
      if (!read_available(trace_read.get(), buffer, on_trace)) break;
      output_open = drain(output_fd, buffer, on_output);
      if (outcome.stopped) break;
    }
    if (polled[0].revents != 0) {
      const ssize_t got = ::read(trace_read.get(), buffer.data(), buffer.size());
      if (got == 0) break;
      if (got > 0) {
        on_trace(std::string_view(buffer.data(), static_cast<std::size_t>(got)));
        if (sink.done()) {
          outcome.stopped = true;
          break;
        }
        // A short read means we are ahead of valgrind: let the pipe fill rather than take
        // its lines a few at a time.
        if (static_cast<std::size_t>(got) < kPipeBytes / 4)
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    }
    const auto now = std::chrono::steady_clock::now();
    if (now - last_tick > std::chrono::milliseconds(250)) {
      sink.tick();
      last_tick = now;
    }
  }
  if (outcome.stopped || outcome.interrupted) {
    child.kill();
  } else if (output_open) {
    drain(output_fd, buffer, on_output);  // what the program printed after its last access
  }
  if (!reaped) outcome.wait_status = child.wait();
  if (!outcome.stopped && !outcome.interrupted) outcome.left_running = children_but(traced);
  return outcome;
}

}  // namespace sysgym::cli
