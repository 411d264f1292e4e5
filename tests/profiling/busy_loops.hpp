// Busy loops of known length inside scopes of four categories: what the known-duration tests
// (native, and under Node through the test module) ask the profiler to find again.
#pragma once

#include <chrono>
#include <map>
#include <string>

#include "profiling/profiler.hpp"

namespace sysgym::profiling::known_loops {

inline const Op kTestOuter("test.outer", Category::kGlue);
inline const Op kTestSimulate("test.simulate", Category::kSimulation);
inline const Op kTestInfer("test.infer", Category::kInference);
inline const Op kTestLearn("test.learn", Category::kLearning);

// Spins for `ms` of steady_clock time: a loop of known length. Returns the length it really had
// (a loaded machine may preempt it past its end), timed on its own, apart from the profiler.
inline double busy(double ms) {
  const auto start = Clock::now();
  const auto until = start + std::chrono::nanoseconds(static_cast<std::int64_t>(ms * 1e6));
  auto now = start;
  while (now < until)
    now = Clock::now();
  return std::chrono::duration<double, std::milli>(now - start).count();
}

// Four rounds of an outer scope around three busy loops, each category its own length (with the
// profiler on the thread, if any); per operation, its loops' own timing in ms.
inline std::map<std::string, double> busy_rounds() {
  std::map<std::string, double> known;
  for (int i = 0; i < 4; ++i) {
    const Scope outer(kTestOuter);
    known["test.outer"] += busy(4);  // the outer scope's own time
    {
      const Scope s(kTestSimulate);
      known["test.simulate"] += busy(12);
    }
    {
      const Scope s(kTestInfer);
      known["test.infer"] += busy(6);
    }
    {
      const Scope s(kTestLearn);
      known["test.learn"] += busy(18);
    }
  }
  return known;
}

}  // namespace sysgym::profiling::known_loops
