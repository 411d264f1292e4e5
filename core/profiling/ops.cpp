#include "profiling/ops.hpp"

namespace sysgym::profiling::ops {

const Op kEnvStep("env.step", Category::kSimulation);
const Op kEnvReset("env.reset", Category::kSimulation);
const Op kVectorStep("vector_env.step", Category::kGlue);
const Op kPolicyAct("policy.act", Category::kInference);
const Op kLearnerUpdate("learner.update", Category::kLearning);
const Op kReplaySample("replay.sample", Category::kData);
const Op kTrainerStep("trainer.step", Category::kGlue);
const Op kDataLoad("data.load", Category::kData);
const Op kTrainerSetup("trainer.setup", Category::kGlue);
const Op kTrainerSave("trainer.save", Category::kData);
const Op kApexExchange("apex.exchange", Category::kData);

}  // namespace sysgym::profiling::ops
