// A progress bar on stderr for work that takes longer than a second. It draws nothing when
// stderr is not a terminal (pipes, CI logs, tests) or when the work finishes within a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "base/progress.hpp"

namespace sysgym::cli {

class ProgressBar {
 public:
  explicit ProgressBar(std::string label);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // A callback for core functions; valid while this bar lives.
  ProgressFn callback();
  void update(std::uint64_t done, std::uint64_t total);

 private:
  using Clock = std::chrono::steady_clock;
  std::string label_;
  bool enabled_;
  bool drawn_ = false;
  Clock::time_point start_;
  Clock::time_point last_draw_;
};

}  // namespace sysgym::cli
