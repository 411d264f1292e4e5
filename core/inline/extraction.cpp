#include "inline/extraction.hpp"

#include <unordered_map>

#include "base/error.hpp"
#include "base/quote.hpp"

namespace sysgym::inlining {
namespace {

// Marks the sites that `remarks` say were inlined; counts the rest. Remarks about calls that
// came from an inlined body (" @ " in the key) are the inliner's later decisions, not ours.
void mark(Program& p, const std::unordered_map<std::string, std::size_t>& site_of,
          const std::string& unit, const std::vector<InlinedSite>& remarks, bool CallSite::*field,
          std::size_t& inlined, std::size_t* elsewhere) {
  for (const InlinedSite& r : remarks) {
    if (r.location.find(" @ ") != std::string::npos) continue;
    const auto it = site_of.find(site_id(unit, r.location, r.callee));
    if (it == site_of.end()) {
      if (elsewhere != nullptr) ++*elsewhere;
      continue;
    }
    if (!(p.sites[it->second].*field)) ++inlined;
    p.sites[it->second].*field = true;
  }
}

}  // namespace

void add_unit(Program& p, const UnitReports& r, ExtractionCounts& counts) {
  const std::size_t unit = p.units.size();
  p.units.push_back(r.unit);
  const std::size_t base = p.functions.size();
  std::unordered_map<std::string, std::size_t> index;
  for (const IrFunction& f : r.ir.functions) {
    index.emplace(f.name, p.functions.size());
    p.functions.push_back({f.name, unit, f.local, f.instructions, f.blocks, 0, {}});
  }
  for (const FunctionPropertiesRecord& props : r.properties) {
    const auto it = index.find(props.function);
    if (it != index.end()) p.functions[it->second].properties = props.counts;
  }

  std::unordered_map<std::string, std::size_t> site_of;
  std::size_t next_cost = 0;
  for (const IrCall& call : r.ir.calls) {
    if (call.callee.empty()) {
      ++counts.indirect_calls;
      continue;
    }
    const auto callee = index.find(call.callee);
    if (callee == index.end()) {
      ++counts.external_calls;
      continue;
    }
    const std::string& caller = p.functions[base + call.caller].name;
    if (next_cost >= r.costs.size() || r.costs[next_cost].callee != call.callee ||
        r.costs[next_cost].caller != caller)
      throw TraceFormatError(r.unit + ": the inline-cost report's call " +
                             std::to_string(next_cost + 1) + " is not the IR's call of " +
                             quote(call.callee) + " in " + quote(caller));
    const NamedCounts& features = r.costs[next_cost++].counts;
    ++p.functions[callee->second].calls_in;
    if (call.location.empty()) {
      ++counts.unlocated_calls;
      continue;
    }
    std::string id = site_id(r.unit, call.location, call.callee);
    const auto [it, added] = site_of.emplace(id, p.sites.size());
    if (!added) {
      ++p.sites[it->second].copies;
      continue;
    }
    p.sites.push_back({std::move(id), unit, base + call.caller, callee->second, call.location, 1,
                       false, false, 0, features});
    ++counts.sites;
  }
  if (next_cost != r.costs.size())
    throw TraceFormatError(r.unit + ": the inline-cost report has " +
                           std::to_string(r.costs.size()) + " calls, the IR " +
                           std::to_string(next_cost) + " direct calls to defined functions");
  mark(p, site_of, r.unit, r.o2, &CallSite::o2, counts.o2_inlined, &counts.o2_elsewhere);
  mark(p, site_of, r.unit, r.oz, &CallSite::oz, counts.oz_inlined, nullptr);
}

}  // namespace sysgym::inlining
