// What a measured or evaluated figure was produced on, printed beside it so that a reader can
// tell whether their figures should match: the day (UTC), the processor and its logical cores,
// the system.
#pragma once

#include <nlohmann/json.hpp>

namespace sysgym::cli {

// {"date": "2026-11-29", "machine": {"cpu", "cores", "system"}}
nlohmann::json run_facts();

}  // namespace sysgym::cli
