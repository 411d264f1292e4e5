// The MemAI-compatible windowing rules of memtier.md section 2 on hand-built pairs.
#include "memtier/windows.hpp"

#include <gtest/gtest.h>

#include "support/errors.hpp"

#include "base/error.hpp"
#include "memtier/trace_builder.hpp"

namespace sysgym::memtier {
namespace {

using testing::Expected;
using testing::make_trace;
using testing::memai_options;
using testing::summarize;

TEST(MemaiWindows, UnevenSpansAreSlicedEquallyWithSharedBoundarySamples) {
  // DDR spans 4 ms, HBM 2 ms, window 2 ms: n = 2, slices of 2 ms and 1 ms.
  const TracePair pair{make_trace("d", {0, 1, 2, 3, 4}), make_trace("h", {0, 0.5, 1, 1.5, 2})};
  const WindowSet set = make_windows(pair, memai_options(2.0));
  EXPECT_EQ(summarize(set), (std::vector<Expected>{{2, 1, 0, 3, false}, {2, 1, 2, 5, false}}));
  EXPECT_EQ(set.window_len, 2.0);
}

TEST(MemaiWindows, SlicesEmptyInBothRunsBecomeOneGapWindow) {
  // Window 2.5 ms over 10 ms: slices 1 and 2 are empty in both runs.
  const TracePair pair{make_trace("d", {0, 1, 9, 10}), make_trace("h", {0, 1, 4, 5})};
  EXPECT_EQ(summarize(make_windows(pair, memai_options(2.5))),
            (std::vector<Expected>{{1, 1, 0, 2, false}, {8, 3, 2, 2, true}, {1, 1, 2, 4, false}}));
}

TEST(MemaiWindows, SliceEmptyOnlyInDdrKeepsItsHbmTimeAndCostsItsDdrTime) {
  // n = floor(10 / 3.3) = 3; DDR slice 1 is empty, HBM's is not.
  const TracePair pair{make_trace("d", {0, 1, 2, 10}), make_trace("h", {0, 3, 6, 9})};
  EXPECT_EQ(summarize(make_windows(pair, memai_options(3.3))),
            (std::vector<Expected>{{2, 3, 0, 3, false}, {0, 3, 3, 3, false}, {8, 3, 3, 4, false}}));
}

TEST(MemaiWindows, PhasesAreWindowedSeparatelyWithTheDefaultLength) {
  // Default length = DDR span 6 ms / 2 phases = 3 ms; each phase is shorter: one window each.
  const TracePair pair{make_trace("d", {0, 1, 2, 5, 6}, {0, 0, 0, 1, 1}),
                       make_trace("h", {0, 1, 3, 4}, {0, 0, 1, 1})};
  const WindowSet set = make_windows(pair, memai_options(std::nullopt));
  EXPECT_EQ(set.window_len, 3.0);
  EXPECT_EQ(summarize(set), (std::vector<Expected>{{2, 1, 0, 3, false}, {4, 3, 3, 5, false}}));
}

TEST(MemaiWindows, AMissingPhaseNumberLeavesAGapWindow) {
  const TracePair pair{make_trace("d", {0, 1, 4, 5}, {0, 0, 2, 2}),
                       make_trace("h", {0, 1, 2, 3}, {0, 0, 2, 2})};
  EXPECT_EQ(summarize(make_windows(pair, memai_options(std::nullopt))),
            (std::vector<Expected>{{1, 1, 0, 2, false}, {3, 1, 2, 2, true}, {1, 1, 2, 4, false}}));
}

TEST(MemaiWindows, AccessUnitGivesSingleSampleWindows) {
  // Ordinals 0..2, window 0.5 accesses: n = 4 slices of half a sample each.
  const TracePair pair{make_trace("d", {0, 10, 20}), make_trace("h", {0, 5, 10})};
  EXPECT_EQ(
      summarize(make_windows(pair, memai_options(0.5, WindowUnit::kAccesses))),
      (std::vector<Expected>{
          {0, 0, 0, 1, false}, {10, 5, 1, 2, false}, {0, 0, 1, 2, false}, {10, 5, 2, 3, false}}));
}

TEST(MemaiWindows, InstructionUnitSlicesByInstructionCounts) {
  // DDR retires its instructions early, HBM evenly: slices follow the counts, not the clock.
  const TracePair pair{make_trace("d", {0, 1, 2, 10}, {}, {}, {0, 40, 60, 100}),
                       make_trace("h", {0, 2, 4, 6}, {}, {}, {0, 40, 60, 100})};
  EXPECT_EQ(summarize(make_windows(pair, memai_options(50, WindowUnit::kInstrs))),
            (std::vector<Expected>{{1, 2, 0, 2, false}, {9, 4, 2, 4, false}}));
}

TEST(MemaiWindows, DurationsTileBothRunsExactly) {
  const TracePair pair{make_trace("d", {0, 0.3, 0.7, 2.2, 2.9, 7.1, 7.2, 9.9}),
                       make_trace("h", {0.5, 0.9, 1.2, 1.4, 3.3, 3.5, 5.0, 5.1})};
  for (double len : {0.1, 0.7, 1.0, 3.0, 100.0}) {
    const WindowSet set = make_windows(pair, memai_options(len));
    std::uint64_t ddr = 0;
    std::uint64_t hbm = 0;
    for (const Window& w : set.windows) {
      ddr += w.ddr_ticks;
      hbm += w.hbm_ticks;
    }
    EXPECT_EQ(ddr, pair.ddr.span_ticks()) << len;
    EXPECT_EQ(hbm, pair.hbm.span_ticks()) << len;
  }
}

std::string config_error(const TracePair& pair, const WindowOptions& options) {
  try {
    make_windows(pair, options);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(MemaiWindows, BadOptionsAndPairsAreNamed) {
  const TracePair pair{make_trace("d.csv", {0, 1}), make_trace("h.csv", {0, 1})};
  WindowOptions o = memai_options(1.0);
  o.page_size_bits = 40;
  EXPECT_EQ(
      config_error(pair, o),
      "page size 40 is out of range: give log2 of the page size in bytes, from 6 (64 B) to 30 "
      "(1 GiB); MemAI uses 13 (8 KiB)");
  EXPECT_EQ(
      config_error(pair, memai_options(1.0, WindowUnit::kInstrs)),
      "unit 'instrs' needs an Instrs column, and d.csv has none (use unit 'ms' or 'accesses')");
  EXPECT_EQ(config_error(pair, memai_options(-2.0)),
            "window_len: -2 is not a number from 1e-09 to 1e+18");
  EXPECT_EQ(
      config_error(pair, memai_options(1e-9)),
      "window length 0.000000 ms gives more than 50000000 windows; choose a larger window length");
  const TracePair phases{make_trace("d.csv", {0, 1}, {0, 1}), make_trace("h.csv", {0, 1}, {0, 2})};
  EXPECT_EQ(
      config_error(phases, memai_options(1.0)),
      "trace pair: phases differ: d.csv has {0,1} but h.csv has {0,2} (both runs must mark the "
      "same phases)");
}

TEST(WindowNames, ParseAndSuggest) {
  EXPECT_EQ(parse_window_unit("accesses"), WindowUnit::kAccesses);
  EXPECT_EQ(parse_window_mode("aligned"), WindowMode::kAligned);
  try {
    parse_window_unit("sec");
    FAIL();
  } catch (const UnknownNameError& e) {
    EXPECT_EQ(std::string(e.what()), "unknown unit 'sec'; valid: ms, instrs, accesses");
  }
}

}  // namespace
}  // namespace sysgym::memtier
