// memtier's own JSON reports (the generic ones are in env/reports.hpp), built in core so the
// native `sysgym` and the npm package's `sysgym` bin print identical output.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "env/policy.hpp"
#include "env/registry.hpp"
#include "memtier/hbm_ranges.hpp"
#include "memtier/prepared_pair.hpp"

namespace sysgym::memtier {

// `sysgym memtier estimate --json`: the estimate and, with a measured run, its time and relative
// error.
nlohmann::json estimate_report(const PreparedPair& pair, const HbmRanges& hbm, double hbm_factor,
                               const Trace* measured);

// `sysgym memtier estimate` without --json: estimate_report() as lines (the measured run named
// `measured_name`).
std::string estimate_report_text(const nlohmann::json& report, const std::string& measured_name);

// `sysgym memtier traces`: what each trace offers a learner, over its whole run with HBM for
// `capacity` (a hbm_capacity value): windows, the all-DDR and all-HBM times, the gap between them
// as a share of all-DDR, and how much of it the static oracle (the best fixed placement) closes.
// A trace with a small gap rewards every policy about alike. One row per trace, in order.
nlohmann::json headroom_report(const Registry& envs, const PolicyRegistry& policies,
                               const std::vector<std::string>& traces,
                               const nlohmann::json& capacity);

}  // namespace sysgym::memtier
