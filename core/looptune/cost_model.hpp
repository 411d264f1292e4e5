// A deterministic analytic estimate of how fast a loop nest runs on the executor (executor.hpp),
// for training without measuring (reproducible, and the same in every build):
//
//   time = max(compute, memory) + calls * call overhead
//   compute = points * cost per point of the micro-kernel the executor picks (a register tile
//             or a unit-stride kernel runs width points per vector operation; strided ones one)
//   memory  = for each cache level, the bytes that miss it / that level's bandwidth, where a
//             loop's block (all the loops inside it) misses a cache when its footprint (distinct
//             lines of the three tensors) does not fit: it is then fetched again on each
//             iteration of the loops around it
//   calls   = how often the interpreter enters the micro-kernel (what the loops above it iterate)
//
// Parameters describe this machine's core (calibrated against measured runs; the README states
// the rank correlation).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "looptune/loop_nest.hpp"

namespace sysgym::looptune {

struct CostModel {
  // Fitted by `sysgym looptune calibrate --fit` on 600 random nests of four kernels on this
  // project's machine (README: the fit and its rank correlation on other random nests).
  double vector_points_per_ns = 23;    // a register tile: points (a multiply and an add) per ns
  double unit_points_per_ns = 18;      // unit-stride dot / axpy (loads and stores every point)
  double strided_points_per_ns = 0.8;  // operands gathered, several per cache line
  double line_points_per_ns = 1.5;     // operands gathered, one cache line each
  double call_ns = 3.6;                // entering the micro-kernel once
  double entry_ns = 2.6;               // starting its inner (vector) loop once
  double tile_output_ns = 0.3;         // a register tile's output loaded and stored once
  double line_bytes = 64;
  double l1_bytes = 32 * 1024;
  double l2_bytes = 1024 * 1024;
  double llc_bytes = 16 * 1024 * 1024;
  // Bandwidth of a miss in L1 served by L2, and so on. Effective figures: LoopTune's problems
  // fit in L2, so the last two are fitted on first touches, not on streaming.
  double l2_gbps = 690;
  double llc_gbps = 10;
  double dram_gbps = 3.1;

  // The estimated GFLOPS of `nest` (annotations as the executor takes them).
  double gflops(const LoopNest& nest, bool annotations) const;
  double seconds(const LoopNest& nest, bool annotations) const;
  // What gflops() can reach at best: a register tile with everything in L1.
  double peak_gflops() const { return 2 * vector_points_per_ns; }

  nlohmann::json to_json() const;
  // Fields replaced from `j` (ConfigError naming the field).
  static CostModel from_json(const nlohmann::json& j, const std::string& context);
};

}  // namespace sysgym::looptune
