// Measured mode: a nest's GFLOPS timed on this machine (or in this browser tab). Each
// measurement times samples of at least 2 ms (as many repetitions of the nest as that takes, so
// a browser's coarse clock does not matter) until at least `min_seconds` have accumulated (and
// `min_runs` samples), keeps the fastest sample (the least disturbed) and the median for the
// spread, and is memoised by the nest's hash. Results vary from run to run and machine to machine:
// training uses the cost model unless asked to measure.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#include "looptune/executor.hpp"
#include "looptune/loop_nest.hpp"

namespace sysgym::looptune {

struct Measurement {
  double best_gflops = 0;    // the fastest sample
  double median_gflops = 0;  // the median sample: best / median - 1 is the spread
  int runs = 0;              // runs of the nest in the samples
  double seconds = 0;        // all runs together
};

class Measurer {
 public:
  explicit Measurer(double min_seconds = 0.01, int min_runs = 3)
      : min_seconds_(min_seconds), min_runs_(min_runs) {}
  Measurement measure(const LoopNest& nest, bool annotations);
  std::size_t memoised() const { return memo_.size(); }

 private:
  double min_seconds_;
  int min_runs_;
  std::unordered_map<std::uint64_t, Measurement> memo_;
  std::map<std::string, Operands> operands_;  // per problem
};

// The fastest the executor runs here: peak_nest() (cost_model.hpp), measured.
double probe_peak_gflops(double min_seconds = 0.05);

}  // namespace sysgym::looptune
