// How `sysgym train --distributed` finds its ranks. The tool built with MPI (Debian's OpenMPI)
// installs an MPI factory at start-up (main.cpp); anything else linking the native library (the
// Python module, the tests) has none, and asking for one says how to get it.
#pragma once

#include <exception>
#include <memory>
#include <nlohmann/json.hpp>

#include "agents/collective.hpp"
#include "agents/trainer.hpp"

namespace sysgym::cli {

using CollectiveFactory = std::unique_ptr<agents::Collective> (*)();
// Ends every rank of the job with `code` (MPI_Abort).
using CollectiveAbort = void (*)(int code);

void set_collective_factory(CollectiveFactory factory, CollectiveAbort abort);

// This process's ranks (MPI_Init on first use; one rank when not started by mpirun). Throws
// ConfigError when this build has no MPI.
std::unique_ptr<agents::Collective> open_collective();

// A rank that fails must end the whole job: the others would wait for it in their next
// collective call for ever. Prints `error` as the tool prints errors, naming the rank, then ends
// every rank (a job of one rank, or a build without MPI, rethrows `error` instead).
[[noreturn]] void fail_ranks(agents::Collective& collective, const std::exception_ptr& error);

// Throws ConfigError on rank 0 naming the first difference when the ranks were started with
// different `job`s (agent, env configs, steps, seed, ...: what must agree for the ranks' collective
// calls to match and their weights to start equal); the other ranks wait for rank 0's verdict.
// Ranks that disagree would otherwise train into mismatched messages (a crash) or a deadlock.
void check_ranks_match(agents::Collective& collective, const nlohmann::json& job);

// Throws Error when the ranks' trained weights differ (they never should: gradients are averaged
// and applied identically; this checks the promise at the end of every distributed run).
void check_ranks_agree(agents::Collective& collective, const agents::Trainer& trainer);

}  // namespace sysgym::cli
