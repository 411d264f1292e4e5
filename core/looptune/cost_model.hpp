// A deterministic analytic estimate of how fast a loop nest runs on the executor (executor.hpp),
// for training without measuring (reproducible, and the same in every build):
//
//   time     = max(compute, memory) + calls * (call + rows * entry + outputs * tile output
//              + block steps * block step)
//   compute  = points / the rate of the micro-kernel the executor picks: register block, register
//              tile, unit-stride dot or axpy, or gathered operands (several or one per line)
//   memory   = for each cache level, the bytes that miss it / the next level's bandwidth, where a
//              loop's block (all the loops inside it) misses a cache when its footprint (distinct
//              lines of the three tensors) does not fit: it is then fetched again on each
//              iteration of the loops around it (a problem that fits whole stays: runs are warm)
//   calls    = how often the interpreter enters the micro-kernel (what the loops above it
//              iterate); rows = inner-loop starts per call (a tile's rows); outputs = a tile's or
//              block's outputs, loaded and stored per call; block steps = a block's rows times
//              its reduction's steps (one broadcast each)
//
// Parameters describe this machine's core (calibrated against measured runs; docs/envs/looptune.md
// states the rank correlation).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "looptune/loop_nest.hpp"

namespace sysgym::looptune {

struct CostModel {
  // Fitted by `sysgym looptune calibrate --nests 150 --fit` (600 random nests of four kernels)
  // on this project's machine; docs/envs/looptune.md gives the rank correlation on other random
  // nests.
  double block_points_per_ns = 68;      // a register block (several rows): points per ns
  double vector_points_per_ns = 52;     // a register tile: points (a multiply and an add) per ns
  double unit_points_per_ns = 17;       // unit-stride dot / axpy (loads and stores every point)
  double strided_points_per_ns = 0.36;  // operands gathered, several per cache line
  double line_points_per_ns = 1.44;     // operands gathered, one cache line each
  double call_ns = 2.6;                 // entering the micro-kernel once
  double entry_ns = 4.0;                // starting its inner (vector) loop once
  double tile_output_ns = 0.12;         // a register tile's output loaded and stored once
  double block_step_ns = 0.24;          // a register block's row, one step of its reduction
  double line_bytes = 64;
  double l1_bytes = 32 * 1024;
  double l2_bytes = 1024 * 1024;
  double llc_bytes = 16 * 1024 * 1024;
  // Bandwidth of a miss in L1 served by L2, and so on. Effective figures: LoopTune's problems
  // fit in L2, so the last two are fitted on first touches, not on streaming.
  double l2_gbps = 450;
  double llc_gbps = 13;
  double dram_gbps = 3.2;

  // The estimated GFLOPS of `nest` (annotations as the executor takes them).
  double gflops(const LoopNest& nest, bool annotations) const;
  double seconds(const LoopNest& nest, bool annotations) const;
  // The peak rewards are scaled by: gflops() of peak_nest().
  double peak_gflops() const;

  nlohmann::json to_json() const;
  // Fields replaced from `j` (ConfigError naming the field).
  static CostModel from_json(const nlohmann::json& j, const std::string& context);
};

// The nest both the model and measurement call the peak: a register block of 8 rows by 64
// outputs over a matmul 64 x 64 x 64 that stays in L1 (m, m, k, n).
LoopNest peak_nest();

}  // namespace sysgym::looptune
