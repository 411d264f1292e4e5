#include "thread_pool.hpp"

#include <algorithm>

namespace sysgym::cli {
namespace {
// About 20-50 microseconds of polling before blocking.
constexpr int kSpins = 20000;
}  // namespace

ThreadPool::ThreadPool(std::size_t threads) {
  for (std::size_t i = 1; i < threads; ++i)
    threads_.emplace_back([this] { worker(); });
}

ThreadPool::~ThreadPool() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true);
  }
  wake_.notify_all();
  for (std::thread& t : threads_)
    t.join();
}

void ThreadPool::run_indices() {
  // Contiguous chunks, one per thread when the bodies cost alike: interleaved indices would have
  // both cores write the same cache lines of a vector env's rewards and flags on every step.
  const std::size_t chunk = (n_ + threads_.size()) / (threads_.size() + 1);
  for (std::size_t first = next_.fetch_add(chunk); first < n_; first = next_.fetch_add(chunk)) {
    for (std::size_t i = first; i < std::min(first + chunk, n_); ++i) {
      try {
        (*body_)(i);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
    }
  }
}

void ThreadPool::worker() {
  std::uint64_t seen = 0;
  for (;;) {
    for (int i = 0;
         i < kSpins && generation_.load(std::memory_order_acquire) == seen && !stop_.load(); ++i) {
      std::this_thread::yield();
    }
    if (generation_.load(std::memory_order_acquire) == seen) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_.load() || generation_.load() != seen; });
    }
    if (stop_.load()) return;
    seen = generation_.load(std::memory_order_acquire);
    run_indices();
    if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      const std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

void ThreadPool::parallel_for(std::size_t n, const std::function<void(std::size_t)>& body) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    body_ = &body;
    n_ = n;
    next_.store(0);
    busy_.store(threads_.size());
    error_ = nullptr;
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  run_indices();
  for (int i = 0; i < kSpins && busy_.load(std::memory_order_acquire) != 0; ++i)
    std::this_thread::yield();
  {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return busy_.load() == 0; });
  }
  if (error_) std::rethrow_exception(error_);
}

ParallelFor ThreadPool::as_parallel_for() {
  return [this](std::size_t n, const std::function<void(std::size_t)>& body) {
    parallel_for(n, body);
  };
}

}  // namespace sysgym::cli
