// Reading what another process writes: an owned file descriptor, and a byte stream cut into
// lines (a line may span reads).
#pragma once

#include <unistd.h>

#include <string>
#include <string_view>
#include <utility>

#include "base/text_scan.hpp"

namespace sysgym::cli {

// Owns a file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    reset();
    fd_ = std::exchange(other.fd_, -1);
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

// A line longer than kMaxLineBytes is passed on in pieces, so a program printing without
// newlines cannot grow the buffer unbounded.
class LineSplitter {
 public:
  template <typename OnLine>
  void feed(std::string_view chunk, OnLine&& on_line) {
    std::size_t begin = 0;
    for (std::size_t nl = chunk.find('\n'); nl != std::string_view::npos;
         nl = chunk.find('\n', begin)) {
      if (pending_.empty()) {
        on_line(chunk.substr(begin, nl - begin));
      } else {
        pending_.append(chunk.substr(begin, nl - begin));
        on_line(std::string_view(pending_));
        pending_.clear();
      }
      begin = nl + 1;
    }
    pending_.append(chunk.substr(begin));
    if (pending_.size() > kMaxLineBytes) {
      on_line(std::string_view(pending_));
      pending_.clear();
    }
  }
  // The last line, when the stream did not end with a newline.
  template <typename OnLine>
  void finish(OnLine&& on_line) {
    if (!pending_.empty()) on_line(std::string_view(pending_));
    pending_.clear();
  }

 private:
  std::string pending_;
};

}  // namespace sysgym::cli
