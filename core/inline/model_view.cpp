#include "inline/model_view.hpp"

#include "base/error.hpp"
#include "env/config_reader.hpp"

namespace sysgym::inlining {
namespace {

Decisions bits_or_ids(const Program& p, const nlohmann::json& list, const std::string& what) {
  if (!list.empty() && list.front().is_string())
    return decisions_from_json(p,
                               {{"kind", "sysgym-inline-decisions"},
                                {"schema_version", 1},
                                {"program", p.name},
                                {"inline", list}},
                               what);
  if (list.size() != p.sites.size())
    throw ConfigError(what + ": " + std::to_string(list.size()) + " bits for the " +
                      std::to_string(p.sites.size()) + " call sites of '" + p.name +
                      "' (or give site ids)");
  Decisions d;
  d.reserve(list.size());
  for (const nlohmann::json& bit : list) {
    if (bit.is_boolean()) {
      d.push_back(bit.get<bool>());
      continue;
    }
    if (bit != 0 && bit != 1)
      throw ConfigError(what + ": " + bit.dump() + " is not a decision (0 or 1)");
    d.push_back(bit == 1);
  }
  return d;
}

}  // namespace

Decisions requested_decisions(const Program& p, const nlohmann::json& spec,
                              const std::string& what) {
  if (spec.is_string()) return decision_set(p, spec.get<std::string>());
  if (spec.is_array()) return bits_or_ids(p, spec, what);
  if (spec.is_object()) return decisions_from_json(p, spec, what);
  throw ConfigError(what + ": " + spec.dump() +
                    " names no decisions (a set's name, site ids, bits or a decisions file)");
}

nlohmann::json call_graph_json(const InlineEnv& env) {
  const Program& p = env.program();
  std::vector<double> calls(p.functions.size(), 0);
  std::vector<std::size_t> callers(p.functions.size(), 0);
  nlohmann::json sites = nlohmann::json::array();
  for (const CallSite& s : p.sites) {
    calls[s.callee] += s.calls;
    ++callers[s.callee];
    nlohmann::json& site = sites.emplace_back();
    site = {{"id", s.id},         {"caller", s.caller}, {"callee", s.callee}, {"calls", s.calls},
            {"copies", s.copies}, {"line", s.line},     {"o2", s.o2},         {"oz", s.oz}};
    if (!s.decidable()) site["never"] = s.never;
  }
  nlohmann::json functions = nlohmann::json::array();
  for (std::size_t f = 0; f < p.functions.size(); ++f) {
    const Function& fn = p.functions[f];
    functions.push_back({{"name", fn.name},
                         {"local", fn.local},
                         {"text_bytes", fn.text_bytes},
                         {"calls", calls[f]},
                         {"callers", callers[f]}});
  }
  return {{"functions", std::move(functions)},
          {"sites", std::move(sites)},
          {"order", env.model().bottom_up_sites()}};
}

nlohmann::json model_view(const InlineEnv& env, const nlohmann::json& request,
                          const std::string& what) {
  ConfigReader r(request, what);
  const nlohmann::json* spec = r.raw("decisions");
  const bool graph = r.boolean("graph", false);
  r.finish();
  const Program& p = env.program();
  nlohmann::json out =
      env.assess(requested_decisions(p, spec ? *spec : nlohmann::json("never"), what));
  out["program"] = p.name;
  out["sites"] = p.sites.size();
  if (graph) out["graph"] = call_graph_json(env);
  return out;
}

}  // namespace sysgym::inlining
