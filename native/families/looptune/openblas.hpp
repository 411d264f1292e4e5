// OpenBLAS's sgemm as the yardstick of tuned matmuls, loaded at run time (Debian's serial build,
// libopenblas0-serial: one thread by construction), so that no other command pays for loading it
// and the tool runs where it is missing.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace sysgym::cli {

class OpenBlas {
 public:
  // Throws IoError saying which libraries were tried and how to install one.
  OpenBlas();
  ~OpenBlas();
  OpenBlas(const OpenBlas&) = delete;
  OpenBlas& operator=(const OpenBlas&) = delete;

  // GFLOPS of C += A * B (row-major, M x K times K x N), the fastest of runs over at least
  // `min_seconds` (as looptune's Measurer times nests).
  double sgemm_gflops(std::int64_t m, std::int64_t n, std::int64_t k, double min_seconds = 0.01);
  // The library's path and its own description (version, target core, threads).
  const std::string& description() const { return description_; }

 private:
  void* handle_ = nullptr;
  using Sgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int,
                         float, float*, int);
  Sgemm sgemm_ = nullptr;
  std::string description_;
};

}  // namespace sysgym::cli
