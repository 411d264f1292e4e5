// The native tool's trace source for envs: synthetic and in-memory pairs as in core, plus files
// named as trace_names.hpp says: a preprocessed PAIR.bin (memory-mapped), or two traces in any
// format (DDR,HBM, PREFIX or a shipped name), windowed with the env's window options. Loaded pairs
// are cached, so `compare` reads each file once for all policies.
#pragma once

#include "memtier/pair_source.hpp"

namespace sysgym::cli {

class FilePairSource : public memtier::InMemoryPairSource {
 public:
  // Also true for a file that is not a pair of traces (PAIR.bin).
  bool is_preprocessed(const std::string& name) override;

 protected:
  std::shared_ptr<const memtier::PreparedPair> load_other(
      const std::string& name, const memtier::WindowRequest& windows) override;
};

}  // namespace sysgym::cli
