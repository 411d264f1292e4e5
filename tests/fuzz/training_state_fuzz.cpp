// Training state files (OUTPUT.state, `sysgym train --resume`): the CBOR, the trainer's options
// and the --vary texts, each checked before a trainer is made from them.
#include "agents/training_files.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return sysgym::fuzz::expecting_errors(
      [&] { (void)sysgym::agents::read_training_state(sysgym::fuzz::bytes(data, size), "fuzz"); });
}
