// The instruction-aligned window mode.
#include <gtest/gtest.h>

#include "support/errors.hpp"

#include "base/error.hpp"
#include "memtier/trace_builder.hpp"
#include "memtier/traces/synth.hpp"
#include "memtier/windows.hpp"

namespace sysgym::memtier {
namespace {

using testing::Expected;
using testing::make_trace;
using testing::summarize;

WindowOptions aligned(std::optional<double> window_len) {
  WindowOptions o;
  o.mode = WindowMode::kAligned;
  o.window_len = window_len;
  o.cpu_cycles_per_ms = testing::kCyclesPerMs;
  return o;
}

TEST(AlignedWindows, WindowsAreTheSameInstructionsInBothRuns) {
  const TracePair pair{make_trace("d", {0, 1, 2, 3, 4, 5}, {}, {}, {0, 10, 20, 30, 40, 50}),
                       make_trace("h", {0, 0.5, 1, 1.5, 2, 2.5}, {}, {}, {0, 10, 20, 30, 40, 50})};
  EXPECT_EQ(
      summarize(make_windows(pair, aligned(20))),
      (std::vector<Expected>{{2, 1, 0, 2, false}, {2, 1, 2, 4, false}, {1, 0.5, 4, 6, false}}));
}

TEST(AlignedWindows, IntervalsWithoutDdrSamplesMergeIntoTheNextWindow) {
  const TracePair pair{make_trace("d", {0, 1, 2, 3}, {}, {}, {0, 5, 65, 70}),
                       make_trace("h", {0, 1, 2, 3}, {}, {}, {0, 30, 60, 70})};
  const WindowSet set = make_windows(pair, aligned(20));
  EXPECT_EQ(summarize(set), (std::vector<Expected>{{2, 3, 0, 2, false}, {1, 0, 2, 4, false}}));
  for (const Window& w : set.windows)
    EXPECT_FALSE(w.empty());
}

TEST(AlignedWindows, PhasesStartNewWindowsAndCarryTheGapBetweenThem) {
  const TracePair pair{make_trace("d", {0, 1, 3, 4}, {0, 0, 1, 1}, {}, {0, 10, 20, 30}),
                       make_trace("h", {0, 0.5, 1, 1.5}, {0, 0, 1, 1}, {}, {0, 10, 20, 30})};
  EXPECT_EQ(summarize(make_windows(pair, aligned(100))),
            (std::vector<Expected>{{1, 0.5, 0, 2, false}, {3, 1, 2, 4, false}}));
}

TEST(AlignedWindows, TileSyntheticRunsExactlyWithoutSampleLessWindows) {
  for (const std::string pattern : {"stream", "phased", "random", "stencil", "family"}) {
    SynthOptions o;
    o.pattern = pattern;
    o.samples = 20000;
    const TracePair pair = synthesize_pair(o);
    const WindowSet set = make_windows(pair, aligned(std::nullopt));
    std::uint64_t ddr = 0;
    std::uint64_t hbm = 0;
    for (const Window& w : set.windows) {
      ddr += w.ddr_ticks;
      hbm += w.hbm_ticks;
      ASSERT_FALSE(w.empty()) << pattern;
    }
    EXPECT_EQ(ddr, pair.ddr.span_ticks()) << pattern;
    EXPECT_EQ(hbm, pair.hbm.span_ticks()) << pattern;
    EXPECT_GT(set.windows.size(), 500u) << pattern;  // default: about 1000 windows
  }
}

TEST(AlignedWindows, NeedsInstructionCounts) {
  const TracePair pair{make_trace("d.perf", {0, 1}), make_trace("h.perf", {0, 1})};
  EXPECT_EQ(sysgym::testing::message_of<ConfigError>([&] { make_windows(pair, aligned(10)); }),
            "window mode 'aligned' needs an Instrs column, and d.perf has none (use mode 'memai')");
}

}  // namespace
}  // namespace sysgym::memtier
