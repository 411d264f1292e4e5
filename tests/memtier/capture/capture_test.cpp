#include "memtier/capture/capture.hpp"

#include <gtest/gtest.h>

#include <cstdio>

#include "base/error.hpp"
#include "memtier/estimator.hpp"
#include "support/errors.hpp"

namespace sysgym::capture {
namespace {

std::string hex(std::uint64_t x) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%llx", static_cast<unsigned long long>(x));
  return buffer;
}

// A lackey stream of a program that streams over array A (8 MiB) while touching array B
// (1 MiB, cache-resident after warm-up) and making random accesses over C (16 MiB).
void feed(CaptureBuilder& builder, int sweeps) {
  const std::uint64_t a = 0x10000000, b = 0x20000000, c = 0x30000000;
  std::uint64_t state = 7;
  for (int sweep = 0; sweep < sweeps; ++sweep) {
    for (std::uint64_t i = 0; i < (8u << 20); i += 64) {
      builder.add_line("I  00400000,4");
      builder.add_line(" L " + hex(a + i) + ",8");
      builder.add_line(" S " + hex(b + (i % (1u << 20))) + ",8");
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      if (i % 512 == 0) builder.add_line(" L " + hex(c + (state >> 40) % (16u << 20)) + ",8");
    }
  }
}

TEST(Capture, BuildsAPairWhereStreamingGainsFromHbm) {
  CaptureOptions options;
  options.sample_period = 16;
  CaptureBuilder builder(options);
  feed(builder, 2);
  const CaptureResult r = builder.finish("prog");
  EXPECT_EQ(r.stats.instructions, 2u * (8u << 20) / 64);
  EXPECT_GT(r.stats.misses, 2u * (8u << 20) / 64);  // the stream misses every line, C adds more
  EXPECT_EQ(r.stats.samples, r.stats.misses / 16);
  EXPECT_NO_THROW(memtier::validate_pair(r.pair));
  EXPECT_LT(r.hbm_ms, r.ddr_ms * 0.7);
  EXPECT_EQ(r.pair.ddr.instrs, r.pair.hbm.instrs);
}

TEST(Capture, ModeledMixedRunsMatchTheEstimatorWithinTwoPercent) {
  CaptureOptions options;
  options.sample_period = 8;
  options.mixed = {memtier::HbmRanges({{0x10000000, 0x10400000}}),   // half of the stream
                   memtier::HbmRanges({{0x30000000, 0x31000000}})};  // the random array
  CaptureBuilder builder(options);
  feed(builder, 2);
  const CaptureResult r = builder.finish("prog");
  memtier::WindowOptions w;
  w.mode = memtier::WindowMode::kAligned;
  w.cpu_cycles_per_ms = timing_model("knl").cycles_per_ms();
  const memtier::PreparedPair pair = memtier::prepare_pair(r.pair, w);
  for (std::size_t i = 0; i < options.mixed.size(); ++i) {
    const double estimated = memtier::Estimator(pair).estimate(options.mixed[i]).estimated_ms;
    EXPECT_LT(memtier::relative_error(estimated, r.mixed_ms[i]), 0.02) << "placement " << i;
  }
}

TEST(Capture, PhasesFollowInstructionCounts) {
  CaptureOptions options;
  options.sample_period = 16;
  options.phase_instructions = 100000;
  CaptureBuilder builder(options);
  feed(builder, 2);
  const CaptureResult r = builder.finish("prog");
  EXPECT_EQ(r.pair.ddr.phases().size(), 3u);  // 262,144 instructions
}

TEST(Capture, MarkedPhasesGetIdsAndSkippedOnesAreCutOut) {
  CaptureOptions options;
  options.sample_period = 16;
  CaptureBuilder whole(options);
  feed(whole, 1);
  const CaptureResult one = whole.finish("one");

  CaptureBuilder builder(options);
  builder.start_phase("init", false);  // nothing ran yet: renames the first phase
  feed(builder, 1);
  builder.start_phase("compute", true);
  feed(builder, 1);
  builder.start_phase("report", false);
  feed(builder, 1);
  builder.start_phase("compute", true);
  feed(builder, 1);
  const CaptureResult r = builder.finish("marked");
  ASSERT_EQ(r.phases.size(), 4u);
  EXPECT_EQ(r.phases[0].name, "init");
  EXPECT_FALSE(r.phases[0].kept);
  EXPECT_EQ(r.phases[1].id, 0u);
  EXPECT_EQ(r.phases[3].id, 1u);
  EXPECT_EQ(r.pair.ddr.phases(), (std::vector<std::uint32_t>{0, 1}));
  // Two kept sweeps: twice the instructions of one, none of the skipped ones.
  EXPECT_EQ(r.stats.instructions, 2 * one.stats.instructions);
  EXPECT_EQ(r.stats.skipped_instructions, 2 * one.stats.instructions);
  EXPECT_EQ(r.phases[2].instructions, one.stats.instructions);
  EXPECT_EQ(r.phases[2].samples, 0u);
  // Time runs only in kept phases: about twice one sweep's (the cache is warm for the second).
  EXPECT_NEAR(r.ddr_ms, 2 * one.ddr_ms, 0.1 * one.ddr_ms);
  EXPECT_NO_THROW(memtier::validate_pair(r.pair));

  options.phase_instructions = 1000;
  CaptureBuilder both(options);
  EXPECT_THROW(both.start_phase("x", true), ConfigError);
}

TEST(Capture, TooFewMissesIsAClearError) {
  CaptureOptions options;
  options.sample_period = 1000;
  CaptureBuilder builder(options);
  builder.add_line("I  00400000,4");
  builder.add_line(" L 10000000,8");
  EXPECT_EQ(sysgym::testing::message_of<TraceFormatError>([&] { builder.finish("tiny"); }),
            "tiny: the program made 1 LLC misses, fewer than two samples at a period of 1000 "
            "(lower --period or "
            "the cache size, or trace a longer run)");
  EXPECT_THROW(timing_model("sapphire"), UnknownNameError);
}

// Found by fuzzing: an access in the last line of the address space looped for ever (the line
// address wrapped around to zero).
TEST(Capture, AnAccessAtTheTopOfTheAddressSpaceTouchesItsLinesOnce) {
  CaptureOptions options;
  options.sample_period = 1;
  CaptureBuilder builder(options);
  builder.add_line(" L fffffffffffffffc,4");   // the last line: a miss
  builder.add_line(" L ffffffffffffffa0,64");  // the two last lines: one miss, one hit
  builder.add_line(" L fffffffffffffff0,64");  // would run past the end: the last line, a hit
  EXPECT_EQ(builder.stats().data_accesses, 3u);
  EXPECT_EQ(builder.stats().misses, 2u);
}

}  // namespace
}  // namespace sysgym::capture
