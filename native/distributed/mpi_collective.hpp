// The ranks of an MPI job (Debian's OpenMPI) as a Collective; linked into the sysgym tool only.
#pragma once

#include <memory>

#include "agents/collective.hpp"

namespace sysgym::cli {

// MPI_Init (once per process) and MPI_COMM_WORLD's rank and size; MPI_Finalize when the
// collective goes.
std::unique_ptr<agents::Collective> open_mpi_collective();

// MPI_Abort on MPI_COMM_WORLD: every rank ends, mpirun with `code`.
void abort_mpi_job(int code);

}  // namespace sysgym::cli
