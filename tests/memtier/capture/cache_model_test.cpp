#include "memtier/capture/cache_model.hpp"

#include <gtest/gtest.h>

#include "base/error.hpp"

namespace sysgym::capture {
namespace {

TEST(CacheModel, HitsAndMissesFollowLruInEachSet) {
  // 2 sets x 2 ways x 64 B lines = 256 B. Lines 0, 2, 4 map to set 0; 1, 3 to set 1.
  CacheModel cache({256, 2, 64});
  const std::uint64_t line = 64;
  EXPECT_FALSE(cache.access(0 * line));     // miss: set 0 = {0}
  EXPECT_TRUE(cache.access(0 * line + 8));  // same line
  EXPECT_FALSE(cache.access(2 * line));     // miss: set 0 = {2, 0}
  EXPECT_FALSE(cache.access(1 * line));     // miss: set 1 = {1}
  EXPECT_TRUE(cache.access(0 * line));      // hit: set 0 = {0, 2}
  EXPECT_FALSE(cache.access(4 * line));     // miss, evicts 2: set 0 = {4, 0}
  EXPECT_FALSE(cache.access(2 * line));     // miss, evicts 0: set 0 = {2, 4}
  EXPECT_TRUE(cache.access(4 * line));      // hit
  EXPECT_FALSE(cache.access(0 * line));     // miss (was evicted)
  EXPECT_EQ(cache.hits(), 3u);
  EXPECT_EQ(cache.misses(), 6u);
}

TEST(CacheModel, AStreamLargerThanTheCacheMissesOncePerLineEachSweep) {
  CacheModel cache({4096, 4, 64});
  for (int sweep = 0; sweep < 3; ++sweep) {
    for (std::uint64_t a = 0; a < 8192; a += 8)
      cache.access(a);
  }
  EXPECT_EQ(cache.misses(), 3u * 8192 / 64);
}

TEST(CacheModel, RejectsShapesThatAreNotPowersOfTwo) {
  EXPECT_THROW(CacheModel({1000, 4, 64}), ConfigError);
  EXPECT_THROW(CacheModel({4096, 4, 48}), ConfigError);
  EXPECT_THROW(CacheModel({4096, 0, 64}), ConfigError);
  EXPECT_NO_THROW(CacheModel({3 * 4096, 3, 64}));  // 3-way, 64 sets
}

}  // namespace
}  // namespace sysgym::capture
