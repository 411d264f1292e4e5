#include "temporaries.hpp"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace sysgym::cli {

// Fixed slots of plain memory, because a handler may only call async-signal-safe functions such
// as unlink(), and may run at any moment.
class TemporarySlot {
 public:
  std::atomic<bool> claimed{false};
  std::atomic<bool> live{false};  // set once `path` is complete
  std::array<char, 4096> path{};
};

namespace {

std::array<TemporarySlot, 8> slots;

// Every signal whose default action terminates the process (signal(7)), SIGKILL and SIGSTOP
// aside, which cannot be caught. The real-time signals are added at run time.
constexpr std::array kTerminatingSignals = {
    SIGHUP,  SIGINT,    SIGQUIT, SIGILL,  SIGTRAP, SIGABRT, SIGBUS,    SIGFPE,
    SIGUSR1, SIGSEGV,   SIGUSR2, SIGPIPE, SIGALRM, SIGTERM, SIGSTKFLT, SIGXCPU,
    SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO,   SIGPWR,  SIGSYS};

std::vector<int> terminating_signals() {
  std::vector<int> all(kTerminatingSignals.begin(), kTerminatingSignals.end());
  for (int s = SIGRTMIN; s <= SIGRTMAX; ++s)
    all.push_back(s);
  return all;
}

// Holds the terminating signals back for its lifetime (they are delivered when it ends).
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t held;
    sigemptyset(&held);
    for (const int signal : terminating_signals())
      sigaddset(&held, signal);
    ::pthread_sigmask(SIG_BLOCK, &held, &previous_);
  }
  ~SignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t previous_{};
};

TemporarySlot* claim_slot(const std::string& path) {
  if (path.size() >= TemporarySlot{}.path.size()) return nullptr;
  for (TemporarySlot& slot : slots) {
    bool expected = false;
    if (!slot.claimed.compare_exchange_strong(expected, true)) continue;
    std::memcpy(slot.path.data(), path.c_str(), path.size() + 1);
    slot.live.store(true);
    return &slot;
  }
  return nullptr;
}

extern "C" void remove_temporaries_and_die(int signal) {
  for (TemporarySlot& slot : slots) {
    if (slot.live.load()) ::unlink(slot.path.data());
  }
  ::signal(signal, SIG_DFL);
  ::raise(signal);  // held until the handler returns, then delivered with the default action
}

}  // namespace

TemporaryFile::TemporaryFile(const std::string& path) : path_(path + ".tmp-XXXXXX") {
  const SignalsHeld held;  // no handler may run between creating and registering the file
  fd_ = ::mkstemp(path_.data());
  exists_ = fd_ >= 0;
  if (exists_) slot_ = claim_slot(path_);
}

TemporaryFile::~TemporaryFile() {
  if (fd_ >= 0) ::close(fd_);
  if (exists_ && !released_) ::unlink(path_.c_str());
  if (slot_ != nullptr) {
    slot_->live.store(false);
    slot_->claimed.store(false);
  }
}

bool TemporaryFile::close() {
  const int fd = fd_;
  fd_ = -1;
  return ::close(fd) == 0;
}

void remove_temporaries_on_signal() {
  for (const int signal : terminating_signals()) {
    struct sigaction previous {};
    if (::sigaction(signal, nullptr, &previous) != 0) continue;
    // Ignored (nohup) stays ignored; a handler someone else installed (a sanitizer's) stays.
    if ((previous.sa_flags & SA_SIGINFO) != 0 || previous.sa_handler != SIG_DFL) continue;
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_die;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal, &action, nullptr);
  }
}

}  // namespace sysgym::cli
