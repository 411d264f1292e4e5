// The native tool's trace source for envs: synthetic and in-memory pairs as in core, plus files:
// "PAIR.bin" (a preprocessed pair, memory-mapped) or "DDR_FILE,HBM_FILE" (raw traces in any
// format, windowed with the env's window options). Loaded pairs are cached, so `compare` reads
// each file once for all policies.
#pragma once

#include "memtier/pair_source.hpp"

namespace sysgym::cli {

class FilePairSource : public memtier::InMemoryPairSource {
 protected:
  std::shared_ptr<const memtier::PreparedPair> load_other(
      const std::string& name, const memtier::WindowRequest& windows) override;
};

}  // namespace sysgym::cli
