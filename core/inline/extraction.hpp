// From what clang and opt print about one translation unit to the unit's functions and call sites
// in a Program (the native `sysgym inline extract` runs the tools; this only reads their output).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "inline/llvm_ir.hpp"
#include "inline/llvm_reports.hpp"
#include "inline/program.hpp"

namespace sysgym::inlining {

struct UnitReports {
  std::string unit;                     // the source, as Program::units names it
  IrModule ir;                          // the unit at -O2 with no call site inlined
  std::vector<InlineCostRecord> costs;  // opt print<inline-cost> over that IR
  std::vector<FunctionPropertiesRecord> properties;
  std::vector<InlinedSite> o2;  // clang -O2 -Rpass=inline
  std::vector<InlinedSite> oz;
};

// What did not become a site, for the extraction's report.
struct ExtractionCounts {
  std::size_t sites = 0;
  std::size_t external_calls = 0;  // to functions without a body in the unit
  std::size_t indirect_calls = 0;
  std::size_t unlocated_calls = 0;  // no debug location: no replay key
  std::size_t o2_inlined = 0;       // sites clang -O2 inlined
  std::size_t o2_elsewhere = 0;     // -O2 remarks of original calls that are no site here
  std::size_t oz_inlined = 0;
};

// Appends the unit's functions and sites to `program`. Throws TraceFormatError when the
// inline-cost report does not follow the IR's calls one for one.
void add_unit(Program& program, const UnitReports& reports, ExtractionCounts& counts);

}  // namespace sysgym::inlining
