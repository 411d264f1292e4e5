#include "inline/decisions.hpp"

#include <unordered_map>

#include "base/error.hpp"
#include "base/names.hpp"
#include "base/quote.hpp"
#include "env/config_reader.hpp"

namespace sysgym::inlining {
namespace {

constexpr const char* kKind = "sysgym-inline-decisions";

}  // namespace

const std::vector<std::string>& decision_set_names() {
  static const std::vector<std::string> names = {"never", "always", "O2", "Oz"};
  return names;
}

Decisions decision_set(const Program& p, const std::string& name) {
  if (name == "never") return Decisions(p.sites.size(), false);
  if (name != "always" && name != "O2" && name != "Oz")
    throw UnknownNameError(unknown_name_message("decision set", name, decision_set_names()));
  Decisions d;
  for (const CallSite& s : p.sites)
    d.push_back(name == "always" ? s.decidable() : name == "O2" ? s.o2 : s.oz);
  return d;
}

nlohmann::json decisions_to_json(const Program& p, const Decisions& d) {
  nlohmann::json ids = nlohmann::json::array();
  for (std::size_t i = 0; i < p.sites.size(); ++i) {
    if (d[i]) ids.push_back(p.sites[i].id);
  }
  return {{"kind", kKind}, {"schema_version", 1}, {"program", p.name}, {"inline", ids}};
}

Decisions decisions_from_json(const Program& p, const nlohmann::json& j, const std::string& what) {
  if (!j.is_object() || j.value("kind", nlohmann::json()) != kKind)
    throw ConfigError(what + ": not a " + std::string(kKind) + " file");
  ConfigReader r(j, what);
  r.string("kind", "");
  if (r.integer("schema_version", 0, 0, 1 << 20) != 1)
    r.fail("schema_version", "is not 1, the version this build reads");
  const std::string program = r.string("program", "");
  if (program != p.name)
    r.fail("program",
           "is " + quote(program) + ", the decisions of another program than " + quote(p.name));
  const nlohmann::json* ids = r.raw("inline");
  if (ids == nullptr || !ids->is_array()) r.fail("inline", "is missing or not a list of site ids");
  r.finish();
  std::unordered_map<std::string, std::size_t> index;
  std::vector<std::string> valid;
  for (std::size_t i = 0; i < p.sites.size(); ++i) {
    index.emplace(p.sites[i].id, i);
    valid.push_back(p.sites[i].id);
  }
  Decisions d(p.sites.size(), false);
  for (const nlohmann::json& id : *ids) {
    if (!id.is_string()) throw ConfigError(what + ": 'inline' holds " + id.dump() + ", not an id");
    const auto it = index.find(id.get<std::string>());
    if (it == index.end()) {
      const std::string near = closest_name(id.get<std::string>(), valid);
      throw ConfigError(what + ": " + quote(id.get<std::string>()) + " is no call site of " +
                        quote(p.name) +
                        (near.empty() ? "" : " (did you mean " + quote(near) + "?)"));
    }
    if (d[it->second]) throw ConfigError(what + ": site " + id.dump() + " is listed twice");
    d[it->second] = true;
  }
  return d;
}

}  // namespace sysgym::inlining
