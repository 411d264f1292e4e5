#include "thread_pool.hpp"

#include <algorithm>

namespace sysgym::cli {
namespace {

// Polling before blocking: first with the CPU's spin-wait hint (a few microseconds), then with
// sched_yield (tens more). Yield alone was the pool's cost: under a hypervisor each is a system
// call of about a microsecond, a fifth of a 64-bin vector step's time went to them, and two
// threads stepped 8 envs slower than one.
constexpr int kPauseSpins = 4000;
constexpr int kYieldSpins = 20000;

void spin_wait_hint() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

template <typename Ready>
bool spin_until(Ready ready) {
  for (int i = 0; i < kPauseSpins; ++i) {
    if (ready()) return true;
    spin_wait_hint();
  }
  for (int i = 0; i < kYieldSpins; ++i) {
    if (ready()) return true;
    std::this_thread::yield();
  }
  return ready();
}

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
    const auto woken = [&] { return generation_.load() != seen || stop_.load(); };
    if (!spin_until(woken)) {
      std::unique_lock<std::mutex> lock(mutex_);
      ++sleepers_;
      wake_.wait(lock, woken);
      --sleepers_;
    }
    if (stop_.load()) return;
    seen = generation_.load();
    run_indices();
    if (busy_.fetch_sub(1) == 1 && caller_sleeps_.load()) {
      const std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_one();
    }
  }
}

// The mutex is taken only to sleep and to wake a sleeper: a call while everyone spins is a few
// atomic operations (sequentially consistent, so that a sleeper's count and the state it waits
// for are seen in one order by both sides and no wake-up is lost).
void ThreadPool::parallel_for(std::size_t n, const std::function<void(std::size_t)>& body) {
  body_ = &body;
  n_ = n;
  next_.store(0);
  busy_.store(threads_.size());
  error_ = nullptr;
  generation_.fetch_add(1);
  if (sleepers_.load() > 0) {
    const std::lock_guard<std::mutex> lock(mutex_);
    wake_.notify_all();
  }
  run_indices();
  const auto finished = [&] { return busy_.load() == 0; };
  if (!spin_until(finished)) {
    std::unique_lock<std::mutex> lock(mutex_);
    caller_sleeps_.store(true);
    done_.wait(lock, finished);
    caller_sleeps_.store(false);
  }
  if (error_) std::rethrow_exception(error_);
}

ParallelFor ThreadPool::as_parallel_for() {
  return [this](std::size_t n, const std::function<void(std::size_t)>& body) {
    parallel_for(n, body);
  };
}

}  // namespace sysgym::cli
