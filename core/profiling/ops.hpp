// The framework's operations, named once: what `sysgym profile` breaks a run into. A family adds
// its own phases next to its code (memtier: memtier/memtier_env.cpp).
#pragma once

#include "profiling/profiler.hpp"

namespace sysgym::profiling::ops {

extern const Op kEnvStep;        // Env::step: the family's simulation of one step
extern const Op kEnvReset;       // Env::reset
extern const Op kVectorStep;     // VectorEnv::step: the envs stepped, their rows copied
extern const Op kPolicyAct;      // a policy choosing an action (network inference for agents)
extern const Op kLearnerUpdate;  // a DQN minibatch step or a PPO update
extern const Op kReplaySample;   // DQN's replay sampling and batch assembly
extern const Op kTrainerStep;    // the trainer's loop around one vector step
extern const Op kDataLoad;       // reading and parsing a data file (a trace, a program)
extern const Op kTrainerSetup;   // a trainer's envs, agent and networks made
extern const Op kTrainerSave;    // a policy file or training state serialised
extern const Op kApexExchange;   // Ape-X: transitions gathered at the learner, weights sent back

}  // namespace sysgym::profiling::ops
