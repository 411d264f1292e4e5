#include "tensorplace/twolm.hpp"

#include <algorithm>
#include <vector>

#include "tensorplace/allocator.hpp"

namespace sysgym::tensorplace {
namespace {

constexpr std::uint64_t kPage = kTensorAlignment;

// Each tensor's first page in the one address space 2LM gives software.
std::vector<std::uint64_t> layout(const Graph& graph) {
  BestFitAllocator heap;
  std::vector<std::uint64_t> first_page(graph.tensors().size());
  for (std::uint32_t k = 0; k < graph.kernels().size(); ++k) {
    for (std::uint32_t t : graph.born_at(k))
      first_page[t] = heap.allocate(graph.tensor(t).allocated_bytes()) / kPage;
    for (std::uint32_t t : graph.dying_at(k))
      heap.release(first_page[t] * kPage, graph.tensor(t).allocated_bytes());
  }
  return first_page;
}

class DirectMappedCache {
 public:
  DirectMappedCache(const Graph& graph, const Platform& platform, std::uint64_t cache_bytes)
      : graph_(graph),
        platform_(platform),
        first_page_(layout(graph)),
        tags_(cache_bytes / kPage, kEmpty),
        dirty_(cache_bytes / kPage, false) {}

  // Seconds kernel k takes; with `count`, its traffic is added to `out`.
  double run_kernel(std::uint32_t k, bool count, TwoLmResult& out) {
    const Kernel& kernel = graph_.kernel(k);
    double memory = 0;
    std::uint32_t missed_mask = 0;
    for (std::size_t i = 0; i < kernel.operand_count(); ++i) {
      const Tensor& tensor = graph_.tensor(kernel.operand(i));
      const bool write = i >= kernel.inputs.size();
      const std::uint64_t pages = tensor.allocated_bytes() / kPage;
      const double page_share = static_cast<double>(tensor.bytes) / static_cast<double>(pages);
      std::uint64_t misses = 0;
      std::uint64_t write_backs = 0;
      for (std::uint64_t p = 0; p < pages; ++p) {
        const Access a = access(first_page_[kernel.operand(i)] + p, write);
        misses += a.miss ? 1 : 0;
        write_backs += a.write_back ? 1 : 0;
      }
      const double hits = static_cast<double>(pages - misses) * page_share;
      const double missed = static_cast<double>(misses) * page_share;
      // Without a cache, writes go to slow memory; with one, they allocate lines in it.
      const double write_bandwidth = tags_.empty() ? platform_.slow_write : platform_.fast_write;
      memory += write ? (hits + missed) / write_bandwidth
                      : hits / platform_.fast_read + missed / platform_.slow_read;
      memory += static_cast<double>(write_backs) * page_share / platform_.slow_write;
      if (2 * misses > pages) missed_mask |= i < 32 ? 1U << i : 0U;
      if (!count) continue;
      out.hit_share += hits;  // bytes for now; a share at the end
      out.bytes_filled += write ? 0 : static_cast<std::uint64_t>(missed);
      out.bytes_written_back +=
          static_cast<std::uint64_t>(static_cast<double>(write_backs) * page_share);
      total_bytes_ += static_cast<double>(tensor.bytes);
    }
    if (!kernel.times.empty()) return kernel_time(graph_, k, missed_mask, platform_);
    return std::max(kernel.flops / platform_.peak_flops, memory);
  }

  double total_bytes() const { return total_bytes_; }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  struct Access {
    bool miss = false;
    bool write_back = false;
  };

  Access access(std::uint64_t page, bool write) {
    if (tags_.empty()) return {true, false};  // no fast memory: every access goes to slow
    const std::size_t set = page % tags_.size();
    Access a;
    if (tags_[set] != page) {
      a.miss = true;
      a.write_back = tags_[set] != kEmpty && dirty_[set];
      tags_[set] = page;
      dirty_[set] = false;
    }
    if (write) dirty_[set] = true;
    return a;
  }

  const Graph& graph_;
  const Platform& platform_;
  std::vector<std::uint64_t> first_page_;
  std::vector<std::uint64_t> tags_;
  std::vector<bool> dirty_;
  double total_bytes_ = 0;
};

}  // namespace

TwoLmResult simulate_2lm(const Graph& graph, const Platform& platform, std::uint64_t cache_bytes) {
  DirectMappedCache cache(graph, platform, cache_bytes);
  TwoLmResult out;
  for (int pass = 0; pass < 2; ++pass) {
    for (std::uint32_t k = 0; k < graph.kernels().size(); ++k) {
      const double seconds = cache.run_kernel(k, pass == 1, out);
      if (pass == 1) out.iteration_s += seconds;
    }
  }
  out.hit_share = cache.total_bytes() > 0 ? out.hit_share / cache.total_bytes() : 0;
  return out;
}

}  // namespace sysgym::tensorplace
