// How `sysgym train --distributed` finds its ranks. The tool built with MPI (Debian's OpenMPI)
// installs an MPI factory at start-up (main.cpp); anything else linking the native library (the
// Python module, the tests) has none, and asking for one says how to get it.
#pragma once

#include <memory>

#include "agents/collective.hpp"
#include "agents/trainer.hpp"

namespace sysgym::cli {

using CollectiveFactory = std::unique_ptr<agents::Collective> (*)();

void set_collective_factory(CollectiveFactory factory);

// This process's ranks (MPI_Init on first use; one rank when not started by mpirun). Throws
// ConfigError when this build has no MPI.
std::unique_ptr<agents::Collective> open_collective();

// Throws Error when the ranks' trained weights differ (they never should: gradients are averaged
// and applied identically; this checks the promise at the end of every distributed run).
void check_ranks_agree(agents::Collective& collective, const agents::Trainer& trainer);

}  // namespace sysgym::cli
