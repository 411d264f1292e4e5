#include "looptune/cost_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "env/config_reader.hpp"
#include "looptune/executor.hpp"
#include "looptune/problems.hpp"

namespace sysgym::looptune {
namespace {

// How many times loop i runs its body: its full steps and a partial one for the tail.
double trips(const LoopNest& nest, std::size_t i) {
  return static_cast<double>(nest.loop(i).size + (nest.loop(i).tail > 0 ? 1 : 0));
}

// The range of each var inside the block of loops [l, end): what its outermost loop there covers.
std::vector<double> ranges(const LoopNest& nest, std::size_t l) {
  std::vector<double> r(nest.problem().vars.size(), 0);
  for (std::size_t i = l; i < nest.size(); ++i) {
    double& range = r[nest.loop(i).var];
    if (range == 0) range = static_cast<double>(nest.extent(i));
  }
  for (double& range : r)
    range = std::max(range, 1.0);
  return r;
}

// Distinct cache lines of `a` the block with these var ranges touches: each dimension spans
// what its vars reach; the last (contiguous) one in lines.
double lines(const Access& a, const std::vector<double>& range, double floats_per_line) {
  double total = 1;
  for (std::size_t d = 0; d < a.dims.size(); ++d) {
    double span = 1;
    for (std::uint32_t v : a.dims[d])
      span += range[v] - 1;
    total *= d + 1 == a.dims.size() ? std::ceil(span / floats_per_line) : span;
  }
  return total;
}

// Every parameter by name, for JSON.
const std::array<std::pair<const char*, double CostModel::*>, 16> kFields = {{
    {"block_points_per_ns", &CostModel::block_points_per_ns},
    {"block_step_ns", &CostModel::block_step_ns},
    {"vector_points_per_ns", &CostModel::vector_points_per_ns},
    {"unit_points_per_ns", &CostModel::unit_points_per_ns},
    {"strided_points_per_ns", &CostModel::strided_points_per_ns},
    {"line_points_per_ns", &CostModel::line_points_per_ns},
    {"call_ns", &CostModel::call_ns},
    {"entry_ns", &CostModel::entry_ns},
    {"tile_output_ns", &CostModel::tile_output_ns},
    {"line_bytes", &CostModel::line_bytes},
    {"l1_bytes", &CostModel::l1_bytes},
    {"l2_bytes", &CostModel::l2_bytes},
    {"llc_bytes", &CostModel::llc_bytes},
    {"l2_gbps", &CostModel::l2_gbps},
    {"llc_gbps", &CostModel::llc_gbps},
    {"dram_gbps", &CostModel::dram_gbps},
}};

}  // namespace

double CostModel::seconds(const LoopNest& nest, bool annotations) const {
  const Problem& p = nest.problem();
  const Kernel kernel = pick_kernel(nest, annotations);
  const double points = p.flops() / 2;
  // A micro-kernel whose operands are not contiguous gathers them one element at a time,
  // whatever it is; slower still where each element is on another cache line.
  const std::size_t q = nest.size() - 1;
  const double floats_per_line = line_bytes / sizeof(float);
  std::int64_t widest = 0;
  for (const Access* t : {&p.a, &p.b, &p.out})
    widest = std::max(widest, std::abs(nest.stride(*t, q)));
  const bool contiguous = kernel != Kernel::kStrided && std::abs(nest.stride(p.a, q)) <= 1 &&
                          std::abs(nest.stride(p.b, q)) <= 1;
  const double contiguous_rate = kernel == Kernel::kBlock  ? block_points_per_ns
                                 : kernel == Kernel::kTile ? vector_points_per_ns
                                                           : unit_points_per_ns;
  const double rate = contiguous                                       ? contiguous_rate
                      : static_cast<double>(widest) >= floats_per_line ? line_points_per_ns
                                                                       : strided_points_per_ns;
  const double compute_ns = points / rate;
  // Loops above the micro-kernel: how often it is entered; and how often its inner loop starts
  // (a register tile runs it once per row, and loads and stores its outputs once per call; a
  // block runs its rows inside one loop over the reduction).
  const std::size_t levels = kernel_levels(kernel);
  double calls = 1;
  for (std::size_t i = 0; i + levels < nest.size(); ++i)
    calls *= trips(nest, i);
  const double width = static_cast<double>(nest.extent(q));
  const double rows = kernel == Kernel::kTile ? trips(nest, q - 1) : 1;
  const double outputs = kernel == Kernel::kBlock  ? width * trips(nest, q - 2)
                         : kernel == Kernel::kTile ? width
                                                   : 0;
  // A block pays per row and step of its reduction (a broadcast of the outer operand) what wide
  // rows amortise.
  const double block_steps = kernel == Kernel::kBlock ? trips(nest, q - 2) * trips(nest, q - 1) : 0;
  const double overhead_ns =
      calls * (call_ns + rows * entry_ns + outputs * tile_output_ns + block_steps * block_step_ns);
  // For each cache, the outermost block that fits is fetched once per iteration of the loops
  // around it.
  std::vector<double> footprint(nest.size() + 1, 0);  // bytes of the block from loop l in
  std::vector<double> around(nest.size() + 1, 1);     // iterations of the loops outside it
  for (std::size_t l = 0; l <= nest.size(); ++l) {
    const std::vector<double> r =
        l < nest.size() ? ranges(nest, l) : std::vector<double>(p.vars.size(), 1.0);
    for (const Access* t : {&p.a, &p.b, &p.out})
      footprint[l] += lines(*t, r, floats_per_line) * line_bytes;
    if (l > 0) around[l] = around[l - 1] * trips(nest, l - 1);
  }
  const std::array<std::pair<double, double>, 3> caches = {
      {{l1_bytes, l2_gbps}, {l2_bytes, llc_gbps}, {llc_bytes, dram_gbps}}};
  double memory_ns = 0;
  for (const auto& [capacity, gbps] : caches) {
    std::size_t l = 0;
    while (l < nest.size() && footprint[l] > capacity)
      ++l;
    // Runs are timed warm, one after another: a problem that fits this cache whole stays in it.
    if (l > 0) memory_ns += footprint[l] * around[l] / gbps;  // bytes / (GB/s) = ns
  }
  return (std::max(compute_ns, memory_ns) + overhead_ns) * 1e-9;
}

LoopNest peak_nest() {
  static const auto problem = problem_from_spec("matmul:64x64x64");
  return LoopNest(problem, {{0, 8, 0}, {0, 8, 0}, {2, 64, 0}, {1, 64, 0}});
}

double CostModel::peak_gflops() const {
  return gflops(peak_nest(), false);
}

double CostModel::gflops(const LoopNest& nest, bool annotations) const {
  return nest.problem().flops() / seconds(nest, annotations) * 1e-9;
}

nlohmann::json CostModel::to_json() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, field] : kFields)
    out[key] = this->*field;
  return out;
}

CostModel CostModel::from_json(const nlohmann::json& j, const std::string& context) {
  ConfigReader r(j, context);
  CostModel m;
  for (const auto& [key, field] : kFields)
    m.*field = r.number(key, m.*field, 1e-6, 1e15);
  r.finish();
  return m;
}

}  // namespace sysgym::looptune
