// Any trace file by its bytes (format detection, then the binary container and trace decoder,
// or the text readers).
#include "base/container.hpp"
#include "fuzz_support.hpp"
#include "memtier/traces/load.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym;
  return fuzz::expecting_errors([&] {
    // Binary inputs alternate between their own checksum and a valid one (see prepared_pair).
    const auto fixed = fuzz::with_valid_checksum(data, size);
    const bool binary = has_container_magic(fuzz::bytes(data, size));
    const bool keep = !binary || (data[size - 1] & 1) != 0;
    memtier::load_trace(keep ? fuzz::bytes(data, size) : std::span<const std::uint8_t>(fixed),
                        "fuzz.bin");
  });
}
