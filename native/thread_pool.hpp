// A fixed pool of worker threads for VectorEnv's ParallelFor: the calling thread works too, and
// a call returns when every index is done. Env steps take microseconds, so both sides spin
// briefly before sleeping on a condition variable, and a call takes no lock while they spin. Core
// stays thread-free; this is the shell's.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "env/vector_env.hpp"

namespace sysgym::cli {

class ThreadPool {
 public:
  // `threads` in all, the caller included (1 = run everything on the caller).
  explicit ThreadPool(std::size_t threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  // body(i) for every i in [0, n); rethrows the first exception a body threw.
  void parallel_for(std::size_t n, const std::function<void(std::size_t)>& body);
  // This pool as a VectorEnv ParallelFor (valid while the pool lives).
  ParallelFor as_parallel_for();

 private:
  void worker();
  void run_indices();

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(std::size_t)>* body_ = nullptr;
  std::size_t n_ = 0;
  std::atomic<std::size_t> next_{0};
  std::atomic<std::size_t> busy_{0};
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<bool> stop_{false};
  std::atomic<int> sleepers_{0};  // workers blocked on wake_ (changed under mutex_)
  std::atomic<bool> caller_sleeps_{false};
  std::exception_ptr error_;
};

}  // namespace sysgym::cli
