#include "inline/extraction.hpp"

#include <map>
#include <unordered_map>

#include "base/error.hpp"
#include "base/quote.hpp"

namespace sysgym::inlining {
void add_unit(Program& p, const UnitReports& r, ExtractionCounts& counts) {
  const std::size_t unit = p.units.size();
  p.units.push_back(r.unit);
  const std::size_t base = p.functions.size();
  std::unordered_map<std::string, std::size_t> index;
  for (const IrFunction& f : r.ir.functions) {
    index.emplace(f.name, p.functions.size());
    p.functions.push_back({f.name, unit, f.local, f.instructions, f.blocks, 0, 0, {}});
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
    const IrFunction& callee_ir = r.ir.functions[callee->second - base];
    std::string never = callee_ir.never_inlined;
    if (never.empty() && !target_compatible(r.ir.functions[call.caller], callee_ir))
      never = "target features";
    p.sites.push_back({std::move(id), unit, base + call.caller, callee->second, call.location,
                       call.line, 1, false, false, 0, features, std::move(never)});
    ++counts.sites;
  }
  if (next_cost != r.costs.size())
    throw TraceFormatError(r.unit + ": the inline-cost report has " +
                           std::to_string(r.costs.size()) + " calls, the IR " +
                           std::to_string(next_cost) + " direct calls to defined functions");
}

std::vector<std::size_t> inlined_sites(const Program& p, std::size_t unit,
                                       const std::vector<InlinedSite>& remarks,
                                       std::size_t& elsewhere) {
  std::unordered_map<std::string, std::vector<std::size_t>> sites_of;
  for (std::size_t i = 0; i < p.sites.size(); ++i) {
    const CallSite& s = p.sites[i];
    if (s.unit == unit)
      sites_of[site_id(p.units[unit], base_location(s.location), p.functions[s.callee].name)]
          .push_back(i);
  }
  std::vector<std::size_t> out;
  for (const InlinedSite& r : remarks) {
    if (r.location.find(" @ ") != std::string::npos) continue;
    const auto it = sites_of.find(site_id(p.units[unit], r.location, r.callee));
    if (it == sites_of.end()) {
      ++elsewhere;
    } else {
      out.insert(out.end(), it->second.begin(), it->second.end());
    }
  }
  return out;
}

std::size_t attach_calls(Program& p, const CallgrindProfile& profile) {
  using Key = std::tuple<std::string, std::string, std::int64_t>;
  std::map<Key, std::vector<std::size_t>> sharing;
  for (std::size_t i = 0; i < p.sites.size(); ++i) {
    const CallSite& s = p.sites[i];
    sharing[{p.functions[s.caller].name, p.functions[s.callee].name, s.line}].push_back(i);
  }
  std::size_t counted = 0;
  for (const auto& [key, sites] : sharing) {
    const auto it = profile.calls.find(key);
    const double calls = it == profile.calls.end() ? 0 : it->second;
    for (std::size_t i : sites)
      p.sites[i].calls = calls / static_cast<double>(sites.size());
    if (calls > 0) counted += sites.size();
  }
  return counted;
}

}  // namespace sysgym::inlining
