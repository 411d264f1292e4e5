// The decision sets a cost model is calibrated on, and the file that keeps them with what real
// mode measured (so that a model can be refitted without compiling again).
//
// Samples file (JSON): {"kind": "sysgym-inline-samples", "schema_version": 2, "samples":
// [{"program": NAME, "decisions": "c3a0...", "text_bytes": n, "instructions": n}]}; "decisions"
// holds the program file's sites in order, four to a hex digit, the first site the digit's
// highest bit. Version 1 (still read) held one 0 or 1 per site, four times the text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "base/rng.hpp"
#include "inline/cost_model.hpp"

namespace sysgym::inlining {

inline constexpr int kSamplesSchemaVersion = 2;

// The named sets (never, always, O2, Oz), then `count` random sets whose share of inlined sites
// runs evenly from 0 to `max_share` (set k inlines each site clang may inline with probability
// max_share x (k + 0.5) / count).
std::vector<Decisions> calibration_sets(const Program& program, std::size_t count, Rng& rng,
                                        double max_share = 1);

nlohmann::json samples_to_json(const std::vector<const Program*>& programs,
                               const std::vector<CalibrationSample>& samples);
// Throws ConfigError naming `what` for a sample of a program not given or of the wrong length.
std::vector<CalibrationSample> samples_from_json(const std::vector<const Program*>& programs,
                                                 const nlohmann::json& j, const std::string& what);
// The decisions of sample `index` (numbered from 0 over the whole file, as errors name them);
// throws ConfigError when there is none or it is another program's.
Decisions sample_decisions(const Program& program, const nlohmann::json& j, std::size_t index,
                           const std::string& what);

}  // namespace sysgym::inlining
