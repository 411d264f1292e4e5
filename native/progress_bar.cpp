#include "progress_bar.hpp"

#include <cstdio>

#include "files.hpp"

namespace sysgym::cli {
namespace {
constexpr auto kQuietPeriod = std::chrono::seconds(1);
constexpr auto kRedrawPeriod = std::chrono::milliseconds(100);
constexpr int kWidth = 30;
}  // namespace

ProgressBar::ProgressBar(std::string label)
    : label_(std::move(label)),
      enabled_(stderr_is_terminal()),
      start_(Clock::now()),
      last_draw_(start_) {}

ProgressBar::~ProgressBar() {
  if (drawn_) std::fputs("\n", stderr);
}

ProgressFn ProgressBar::callback() {
  return [this](std::uint64_t done, std::uint64_t total) { update(done, total); };
}

void ProgressBar::update(std::uint64_t done, std::uint64_t total) {
  if (!enabled_ || total == 0) return;
  const auto now = Clock::now();
  const bool finished = done >= total;
  if (now - start_ < kQuietPeriod || (!finished && now - last_draw_ < kRedrawPeriod)) return;
  if (finished && !drawn_) return;
  last_draw_ = now;
  drawn_ = true;
  const double fraction = static_cast<double>(done) / static_cast<double>(total);
  const int filled = static_cast<int>(fraction * kWidth);
  const double seconds = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "\r%s [%-*s] %5.1f%%  %.1fs", label_.c_str(), kWidth,
               std::string(static_cast<std::size_t>(filled), '#').c_str(), 100.0 * fraction,
               seconds);
  std::fflush(stderr);
}

}  // namespace sysgym::cli
