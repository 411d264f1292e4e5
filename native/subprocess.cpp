#include "subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "stream_lines.hpp"

extern char** environ;

namespace sysgym::cli {
namespace {

int open_or_throw(const std::string& path, int flags, const char* role) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0)
    throw IoError("cannot open " + quote(path) + " for a tool's " + role + ": " +
                  std::strerror(errno));
  return fd;
}

// One output stream of the tool: its lines to a callback, the last of them kept for messages.
class LineSink {
 public:
  LineSink(std::function<void(std::string_view)> on_line, bool keep_tail)
      : on_line_(std::move(on_line)), keep_tail_(keep_tail) {}
  void add(std::string_view chunk) {
    lines_.feed(chunk, [this](std::string_view line) { emit(line); });
  }
  void finish() {
    lines_.finish([this](std::string_view line) { emit(line); });
  }
  std::string tail() const {
    std::string out;
    for (const std::string& l : tail_)
      out += l + "\n";
    return out;
  }

 private:
  void emit(std::string_view line) {
    if (on_line_) on_line_(line);
    if (!keep_tail_) return;
    tail_.emplace_back(line.substr(0, 400));
    if (tail_.size() > 20) tail_.pop_front();
  }
  std::function<void(std::string_view)> on_line_;
  bool keep_tail_;
  LineSplitter lines_;
  std::deque<std::string> tail_;
};

}  // namespace

std::string command_line(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    if (!out.empty()) out += ' ';
    out += a.find(' ') == std::string::npos ? a : "'" + a + "'";
  }
  return out;
}

ProcessOutcome run_process(const ProcessSpec& spec) {
  std::array<int, 2> out_pipe{-1, -1}, err_pipe{-1, -1};
  if (::pipe2(out_pipe.data(), O_CLOEXEC) != 0 || ::pipe2(err_pipe.data(), O_CLOEXEC) != 0)
    throw IoError(std::string("cannot make a pipe: ") + std::strerror(errno));
  Fd out_read(out_pipe[0]), out_write(out_pipe[1]), err_read(err_pipe[0]), err_write(err_pipe[1]);
  const Fd in(
      open_or_throw(spec.stdin_file.empty() ? "/dev/null" : spec.stdin_file, O_RDONLY, "input"));
  const Fd out_file(spec.stdout_file.empty()
                        ? -1
                        : open_or_throw(spec.stdout_file, O_WRONLY | O_CREAT | O_TRUNC, "output"));

  std::vector<std::string> args = spec.argv;
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (std::string& a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, out_file.get() >= 0 ? out_file.get() : out_write.get(),
                                   1);
  posix_spawn_file_actions_adddup2(&actions, err_write.get(), 2);
  if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, spec.cwd.c_str());
  pid_t pid = 0;
  // With a timeout, a group of its own, so that stopping the tool stops its children too
  // (clang's cc1); without one, it stays in ours and a Ctrl-C reaches it.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (spec.timeout_seconds > 0) posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  const int error = ::posix_spawnp(&pid, argv[0], &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    // posix_spawn reports a working folder that is not there as the program not being there.
    std::error_code ignored;
    const bool no_folder = !spec.cwd.empty() && !std::filesystem::is_directory(spec.cwd, ignored);
    throw IoError("cannot run " + quote(spec.argv[0]) +
                  (no_folder ? " in " + quote(spec.cwd) + ": no such folder"
                             : ": " + std::string(std::strerror(error))));
  }
  out_write.reset();
  err_write.reset();

  LineSink out(spec.on_stdout_line, false), err(spec.on_stderr_line, true);
  std::array<char, 1 << 16> buffer{};
  std::array<pollfd, 2> fds = {pollfd{out_read.get(), POLLIN, 0},
                               pollfd{err_read.get(), POLLIN, 0}};
  std::array<LineSink*, 2> sinks = {&out, &err};
  int open_streams = 2;
  const auto started = std::chrono::steady_clock::now();
  bool timed_out = false;
  while (open_streams > 0) {
    const int ready = ::poll(fds.data(), fds.size(), spec.timeout_seconds > 0 ? 200 : -1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (spec.timeout_seconds > 0 && !timed_out &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() >
            spec.timeout_seconds) {
      ::kill(-pid, SIGKILL);  // the pipes then close and the loop ends
      timed_out = true;
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t got = ::read(fds[i].fd, buffer.data(), buffer.size());
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        fds[i].fd = -1;
        --open_streams;
        continue;
      }
      sinks[i]->add(std::string_view(buffer.data(), static_cast<std::size_t>(got)));
    }
  }
  out.finish();
  err.finish();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ProcessOutcome outcome;
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  outcome.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  outcome.stderr_tail = err.tail();
  outcome.timed_out = timed_out;
  return outcome;
}

void run_checked(const ProcessSpec& spec, const std::string& what) {
  const ProcessOutcome outcome = run_process(spec);
  if (outcome.timed_out) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", spec.timeout_seconds);
    throw ToolTimeout(what + " took longer than " + seconds +
                      " s and was stopped: " + command_line(spec.argv));
  }
  if (outcome.signal != 0) {
    const char* name = sigabbrev_np(outcome.signal);
    throw ToolCrashed(what + " crashed (signal " + std::to_string(outcome.signal) + ", SIG" +
                      (name != nullptr ? name : "?") + "): " + command_line(spec.argv) + "\n" +
                      outcome.stderr_tail);
  }
  if (outcome.exit_code != 0)
    throw IoError(what + " failed (exit " + std::to_string(outcome.exit_code) +
                  "): " + command_line(spec.argv) + "\n" + outcome.stderr_tail);
}

}  // namespace sysgym::cli
