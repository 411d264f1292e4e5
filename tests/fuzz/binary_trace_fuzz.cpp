// Any trace file by its bytes (format detection, then the binary container and trace decoder,
// or the text readers).
#include "fuzz_support.hpp"
#include "traces/load.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym;
  return fuzz::expecting_errors([&] { memtier::load_trace(fuzz::bytes(data, size), "fuzz.bin"); });
}
