// How the native tool finds a memtier trace pair by name: the one syntax of the `trace` config
// key and of every memtier command (README: "Naming a trace").
//   DDR,HBM        two traces in any format (CSV, perf script, binary)
//   PAIR.bin       a pair preprocessed by `sysgym memtier preprocess`
//   PREFIX         PREFIX.ddr.* and PREFIX.hbm.* (binary preferred when several formats exist)
//   NAME           a shipped pair (lammps, xz, ...: data/real, data/synth)
//   synth:...      a synthetic pair (made in core, never reaches this file)
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace sysgym::cli {

struct PairFiles {
  std::string prepared;  // a preprocessed pair, or else
  std::string ddr, hbm;  // two traces
};

// Throws IoError naming what was looked for and the shipped names.
PairFiles find_pair_files(const std::string& name);

// The shipped data folder: $SYSGYM_DATA, else data/ beside the source tree the tool was built in
// (build/PRESET/sysgym -> data/). Empty when neither exists.
std::filesystem::path shipped_data_dir();
// Names of the shipped pairs (every PREFIX with both traces in data/real and data/synth).
std::vector<std::string> shipped_pair_names();

}  // namespace sysgym::cli
