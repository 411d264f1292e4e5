// The differential estimator on a trace pair: estimate DDR_TRACE HBM_TRACE (any format).
#include <fstream>
#include <iostream>
#include <iterator>

#include "memtier/estimator.hpp"
#include "memtier/prepared_pair.hpp"
#include "memtier/traces/load.hpp"

static std::vector<std::uint8_t> read_bytes(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int main(int argc, char** argv) {
  using namespace sysgym::memtier;
  if (argc != 3) return 2;
  TracePair pair{load_trace(read_bytes(argv[1]), argv[1]),
                 load_trace(read_bytes(argv[2]), argv[2])};
  WindowOptions options;  // memai mode, ms, page 13: MemAI's defaults
  options.mode = WindowMode::kAligned;
  PreparedPair prepared = prepare_pair(pair, options);
  Estimate e = Estimator(prepared).estimate(HbmRanges({{0x7f3a00000000, 0x7f3a01000000}}));
  std::cout << e.estimated_ms << " ms (all DDR " << e.ddr_ms << ", all HBM " << e.hbm_ms << ")\n";
}
