// memtier's own JSON reports (the generic ones are in env/reports.hpp), built in core so the
// native `sysgym` and the npm package's `sysgym` bin print identical output.
#pragma once

#include <nlohmann/json.hpp>

#include "memtier/hbm_ranges.hpp"
#include "memtier/prepared_pair.hpp"

namespace sysgym::memtier {

// `sysgym memtier estimate --json`: the estimate and, with a measured run, its time and relative error.
nlohmann::json estimate_report(const PreparedPair& pair, const HbmRanges& hbm, double hbm_factor,
                               const Trace* measured);

}  // namespace sysgym::memtier
