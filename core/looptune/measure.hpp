// Measured mode: a nest's GFLOPS timed on this machine (or in this browser tab). Each
// measurement times samples of at least 2 ms (as many repetitions of the nest as that takes, so
// a browser's coarse clock does not matter) until at least `min_seconds` have accumulated (and
// `min_runs` samples), keeps the fastest sample (the least disturbed) and the median for the
// spread, and is memoised by the nest's hash. Results vary from run to run and machine to machine:
// training uses the cost model unless asked to measure.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>

#include "looptune/cost_model.hpp"
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

// Throws ConfigError when the cost model says one run of `problem`'s untuned nest takes longer
// than kMaxMeasuredRunSeconds: measuring it would hold the caller for hours without a word.
// `instead` ends the message with what to do ("use reward=model").
void check_measurable(const std::shared_ptr<const Problem>& problem, const CostModel& model,
                      bool annotations, const std::string& instead);
// "about 47 min (1100 GFLOP at the cost model's 0.39 GFLOPS)": what a measurement of `nest`
// will take, for a line of progress before it starts.
std::string measuring_estimate(const LoopNest& nest, const CostModel& model, bool annotations);

// The fastest the executor runs here: peak_nest() (cost_model.hpp), measured.
double probe_peak_gflops(double min_seconds = 0.05);

}  // namespace sysgym::looptune
