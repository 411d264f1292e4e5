// Preprocessed pairs (`sysgym memtier preprocess` output): container, then every column's consistency,
// then an estimate over the decoded pair (what a reader does next with it).
#include "base/container.hpp"
#include "fuzz_support.hpp"
#include "memtier/estimator.hpp"
#include "memtier/prepared_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym;
  return fuzz::expecting_errors([&] {
    // Half the inputs keep their bytes (the checksum check itself is fuzzed), half get a valid
    // checksum so that mutations reach the decoder.
    const auto fixed = fuzz::with_valid_checksum(data, size);
    const bool keep = size > 0 && (data[size - 1] & 1) != 0;
    const ContainerReader reader(keep ? fuzz::bytes(data, size) : std::span(fixed), "fuzz.bin");
    const memtier::PreparedPair pair = memtier::decode_prepared_pair(reader);
    memtier::Estimator(pair).estimate(memtier::HbmRanges(), 1.0);
  });
}
