// Preprocessed pairs (`sysgym preprocess` output): container, then every column's consistency,
// then an estimate over the decoded pair (what a reader does next with it).
#include "fuzz_support.hpp"
#include "memtier/estimator.hpp"
#include "memtier/prepared_file.hpp"
#include "traces/container.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace sysgym;
  return fuzz::expecting_errors([&] {
    const memtier::ContainerReader reader(fuzz::bytes(data, size), "fuzz.bin");
    const memtier::PreparedPair pair = memtier::decode_prepared_pair(reader);
    memtier::Estimator(pair).estimate(memtier::HbmRanges(), 1.0);
  });
}
