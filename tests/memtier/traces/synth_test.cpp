#include "memtier/traces/synth.hpp"

#include <gtest/gtest.h>

#include <set>

#include "support/errors.hpp"

#include "base/error.hpp"
#include "memtier/hbm_ranges.hpp"

namespace sysgym::memtier {
namespace {

SynthOptions options_for(const std::string& pattern, std::uint64_t seed = 1) {
  SynthOptions o;
  o.pattern = pattern;
  o.samples = 5000;
  o.seed = seed;
  return o;
}

class SynthPattern : public ::testing::TestWithParam<std::string> {};

TEST_P(SynthPattern, ProducesAValidPairOfTheSameWork) {
  const TracePair pair = synthesize_pair(options_for(GetParam()));
  EXPECT_NO_THROW(validate_pair(pair));
  EXPECT_EQ(pair.ddr.size(), 5000u);
  EXPECT_EQ(pair.ddr.instrs, pair.hbm.instrs);
  EXPECT_EQ(pair.ddr.vaddr, pair.hbm.vaddr);
}

TEST_P(SynthPattern, SameSeedSamePairDifferentSeedDifferentPair) {
  const TracePair a = synthesize_pair(options_for(GetParam(), 3));
  const TracePair b = synthesize_pair(options_for(GetParam(), 3));
  const TracePair c = synthesize_pair(options_for(GetParam(), 4));
  EXPECT_EQ(a.ddr.timestamp, b.ddr.timestamp);
  EXPECT_EQ(a.hbm.vaddr, b.hbm.vaddr);
  EXPECT_NE(a.ddr.vaddr, c.ddr.vaddr);
}

TEST_P(SynthPattern, MixedRunLiesBetweenTheAllHbmAndAllDdrRunsForStreamingData) {
  const SynthOptions o = options_for(GetParam());
  const TracePair pair = synthesize_pair(o);
  const Trace none = synthesize_mixed(o, HbmRanges());
  // Nothing in HBM: the same costs as the DDR run up to its own jitter stream (+-3 %).
  const double ratio =
      static_cast<double>(none.span_ticks()) / static_cast<double>(pair.ddr.span_ticks());
  EXPECT_NEAR(ratio, 1.0, 0.01);
}

INSTANTIATE_TEST_SUITE_P(AllPatterns, SynthPattern,
                         ::testing::Values("stream", "phased", "random", "stencil", "family"));

TEST(Synth, StreamingIsFasterInHbmAndRandomAccessIsNot) {
  const TracePair stream = synthesize_pair(options_for("stream"));
  EXPECT_LT(stream.hbm.span_ticks() * 10, stream.ddr.span_ticks() * 6);
  const TracePair random = synthesize_pair(options_for("random"));
  EXPECT_GT(random.hbm.span_ticks(), random.ddr.span_ticks() * 95 / 100);
}

TEST(Synth, PhasedPatternMarksItsPhases) {
  SynthOptions o = options_for("phased");
  o.phases = 3;
  EXPECT_EQ(synthesize_pair(o).ddr.phases(), (std::vector<std::uint32_t>{0, 1, 2}));
}

// Seeds of the family pattern are different programs: their phase counts and gaps differ, and
// each phase is one contiguous stretch of the run.
TEST(Synth, FamilySeedsAreProgramsOfDifferentShapes) {
  std::set<std::uint32_t> phase_counts;
  std::set<std::uint64_t> hbm_times;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    SynthOptions o = options_for("family");
    o.samples = 20000;
    o.seed = seed;
    const TracePair pair = synthesize_pair(o);
    const std::vector<std::uint32_t>& phase = pair.ddr.phase;
    for (std::size_t i = 1; i < phase.size(); ++i)
      ASSERT_GE(phase[i], phase[i - 1]) << "seed " << seed << " sample " << i;
    phase_counts.insert(phase.back() + 1);
    hbm_times.insert(pair.hbm.timestamp.back());
  }
  EXPECT_GE(phase_counts.size(), 5u);
  EXPECT_EQ(hbm_times.size(), 12u);
}

TEST(Synth, UnknownPatternAndBadOptionsAreNamed) {
  EXPECT_EQ(
      testing::message_of<UnknownNameError>([&] { synthesize_pair(options_for("strem")); }),
      "unknown pattern 'strem' (did you mean 'stream'?); valid: family, phased, random, stencil, "
      "stream");
  SynthOptions o = options_for("stream");
  o.samples = 1;
  EXPECT_THROW(synthesize_pair(o), ConfigError);
}

}  // namespace
}  // namespace sysgym::memtier
