// MemAI CSV reader.
#include "fuzz_support.hpp"
#include "memtier/traces/csv_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym;
  return fuzz::expecting_errors(
      [&] { memtier::read_csv_trace(fuzz::text(data, size), "fuzz.csv"); });
}
