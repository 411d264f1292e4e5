// The best-fit allocator and the 2LM cache baseline built on its layout.
#include "tensorplace/twolm.hpp"

#include <gtest/gtest.h>

#include <random>

#include "tensorplace/allocator.hpp"
#include "tensorplace/simulator.hpp"
#include "tensorplace/zoo/zoo.hpp"

namespace sysgym::tensorplace {
namespace {

constexpr std::uint64_t kPage = 4096;

TEST(BestFitAllocator, TakesTheSmallestFreeBlockThatFitsAndMergesNeighbours) {
  BestFitAllocator heap;
  const std::uint64_t a = heap.allocate(3 * kPage);
  const std::uint64_t b = heap.allocate(1);  // rounded up to a page
  const std::uint64_t c = heap.allocate(2 * kPage);
  const std::uint64_t d = heap.allocate(kPage);
  EXPECT_EQ(b, 3 * kPage);
  EXPECT_EQ(heap.extent(), 7 * kPage);
  heap.release(a, 3 * kPage);
  heap.release(c, 2 * kPage);
  // Free: [0, 3) and [4, 6) pages; two pages go to the smaller hole, one more to the larger.
  EXPECT_EQ(heap.allocate(2 * kPage), c);
  EXPECT_EQ(heap.allocate(3 * kPage), a);
  EXPECT_EQ(heap.extent(), 7 * kPage);
  heap.release(b, kPage);
  heap.release(a, 3 * kPage);  // merges with b's page: a four-page hole at 0
  EXPECT_EQ(heap.allocate(4 * kPage), 0u);
  EXPECT_EQ(heap.live_bytes(), 7 * kPage);
  heap.release(d, kPage);  // the top shrinks: the next block goes there again
  EXPECT_EQ(heap.allocate(kPage), d);
}

TEST(BestFitAllocator, NeverOverlapsLiveBlocks) {
  std::mt19937_64 rng(3);
  BestFitAllocator heap;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> live;  // offset, pages
  for (int step = 0; step < 2000; ++step) {
    if (!live.empty() && rng() % 2 == 0) {
      const std::size_t i = rng() % live.size();
      heap.release(live[i].first, live[i].second * kPage);
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(i));
      continue;
    }
    const std::uint64_t pages = 1 + rng() % 16;
    const std::uint64_t offset = heap.allocate(pages * kPage);
    EXPECT_EQ(offset % kPage, 0u);
    for (const auto& [other, other_pages] : live)
      ASSERT_TRUE(offset + pages * kPage <= other || other + other_pages * kPage <= offset);
    live.emplace_back(offset, pages);
  }
  std::uint64_t bytes = 0;
  for (const auto& block : live)
    bytes += block.second * kPage;
  EXPECT_EQ(heap.live_bytes(), bytes);
  EXPECT_GE(heap.extent(), bytes);
}

TEST(TwoLm, ABigEnoughCacheIsAllFastAndNoCacheIsAllSlow) {
  const Platform p = platform_named("optane");
  for (const char* model : {"vgg19", "resnet50"}) {
    const Graph g = zoo_graph(model, 4);
    const TwoLmResult none = simulate_2lm(g, p, 0);
    EXPECT_NEAR(none.iteration_s, all_slow_seconds(g, p), 1e-9 * none.iteration_s) << model;
    EXPECT_EQ(none.hit_share, 0.0);
    // A cache as large as the whole address space holds every page after the first pass.
    const TwoLmResult all = simulate_2lm(g, p, 64 * g.peak_live_bytes());
    EXPECT_NEAR(all.iteration_s, all_fast_seconds(g, p), 1e-9 * all.iteration_s) << model;
    EXPECT_DOUBLE_EQ(all.hit_share, 1.0);
    EXPECT_EQ(all.bytes_written_back, 0u);
    const TwoLmResult half = simulate_2lm(g, p, g.peak_live_bytes() / 2);
    EXPECT_GT(half.hit_share, 0.0);
    EXPECT_LT(half.hit_share, 1.0);
    EXPECT_GT(half.iteration_s, all.iteration_s) << model;
    EXPECT_GT(half.bytes_written_back, 0u) << "dirty lines evicted by conflicts are written back";
  }
}

}  // namespace
}  // namespace sysgym::tensorplace
