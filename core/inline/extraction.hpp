// From what clang and opt print about one translation unit to the unit's functions and call sites
// in a Program (the native `sysgym inline extract` runs the tools; this only reads their output).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "inline/callgrind.hpp"
#include "inline/llvm_ir.hpp"
#include "inline/llvm_reports.hpp"
#include "inline/program.hpp"

namespace sysgym::inlining {

struct UnitReports {
  std::string unit;                     // the source, as Program::units names it
  IrModule ir;                          // the unit at -O2 with no call site inlined
  std::vector<InlineCostRecord> costs;  // opt print<inline-cost> over that IR
  std::vector<FunctionPropertiesRecord> properties;
};

// What did not become a site, for the extraction's report.
struct ExtractionCounts {
  std::size_t sites = 0;
  std::size_t external_calls = 0;  // to functions without a body in the unit
  std::size_t indirect_calls = 0;
  std::size_t unlocated_calls = 0;  // no debug location: no replay key
};

// Appends the unit's functions and sites to `program`. Throws TraceFormatError when the
// inline-cost report does not follow the IR's calls one for one.
void add_unit(Program& program, const UnitReports& reports, ExtractionCounts& counts);

// The sites of `unit` that clang's "inlined into" remarks name: a remark's key names a call where
// it was written, so it also names the copies of that call in always_inline bodies
// (base_location). Remarks about calls that came from a body inlined by a decision (" @ " in
// their key) are the inliner's later decisions: not sites. Remarks about original calls that are
// no site (a body that -O2 drops by its end, as glibc's inline atoi) are counted in `elsewhere`.
std::vector<std::size_t> inlined_sites(const Program& program, std::size_t unit,
                                       const std::vector<InlinedSite>& remarks,
                                       std::size_t& elsewhere);

// Sets each site's dynamic calls from a profile of the program built with no site inlined (and
// no tail calls, which callgrind would not see as calls); sites that share a caller, a callee
// and a line share its count evenly. Returns how many sites were called at all.
std::size_t attach_calls(Program& program, const CallgrindProfile& profile);

}  // namespace sysgym::inlining
