#include "families/looptune/openblas.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "base/error.hpp"

namespace sysgym::cli {
namespace {

// Debian's serial build first (single-threaded), then whatever the loader finds.
constexpr const char* kCandidates[] = {
    "/usr/lib/x86_64-linux-gnu/openblas-serial/libopenblas.so.0",
    "/usr/lib/aarch64-linux-gnu/openblas-serial/libopenblas.so.0",
    "libopenblas.so.0",
};
constexpr int kRowMajor = 101;  // CBLAS's enum values
constexpr int kNoTrans = 111;

}  // namespace

OpenBlas::OpenBlas() {
  std::string tried;
  for (const char* path : kCandidates) {
    handle_ = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (handle_ != nullptr) {
      description_ = path;
      break;
    }
    tried += std::string(tried.empty() ? "" : ", ") + path;
  }
  if (handle_ == nullptr)
    throw IoError("OpenBLAS is not installed (tried " + tried +
                  "): install Debian's libopenblas0-serial (./sysgym.sh setup does)");
  sgemm_ = reinterpret_cast<Sgemm>(dlsym(handle_, "cblas_sgemm"));
  if (sgemm_ == nullptr) throw IoError(description_ + " has no cblas_sgemm");
  using SetThreads = void (*)(int);
  if (auto set = reinterpret_cast<SetThreads>(dlsym(handle_, "openblas_set_num_threads"))) set(1);
  using Config = char* (*)();
  if (auto config = reinterpret_cast<Config>(dlsym(handle_, "openblas_get_config")))
    description_ += std::string(" (") + config() + ")";
}

OpenBlas::~OpenBlas() {
  if (handle_ != nullptr) dlclose(handle_);
}

double OpenBlas::sgemm_gflops(std::int64_t m, std::int64_t n, std::int64_t k, double min_seconds) {
  const auto size = [](std::int64_t rows, std::int64_t cols) {
    return static_cast<std::size_t>(rows * cols);
  };
  std::vector<float> a(size(m, k), 1.0f);
  std::vector<float> b(size(k, n), 0.5f);
  std::vector<float> c(size(m, n), 0.0f);
  double best = 1e30;
  double total = 0;
  for (int runs = 0; total < min_seconds || runs < 3; ++runs) {
    const auto start = std::chrono::steady_clock::now();
    sgemm_(kRowMajor, kNoTrans, kNoTrans, static_cast<int>(m), static_cast<int>(n),
           static_cast<int>(k), 1.0f, a.data(), static_cast<int>(k), b.data(), static_cast<int>(n),
           1.0f, c.data(), static_cast<int>(n));
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::min(best, took);
    total += took;
  }
  return 2.0 * static_cast<double>(m * n * k) / std::max(best, 1e-12) * 1e-9;
}

}  // namespace sysgym::cli
