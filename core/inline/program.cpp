#include "inline/program.hpp"

#include <set>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/quote.hpp"
#include "env/config_reader.hpp"

namespace sysgym::inlining {
namespace {

// `skip_zeros`: counts of 0 left out (a site's features are read with 0 for a missing name; they
// are two thirds of SQLite's file, most of them 0).
nlohmann::json counts_to_json(const NamedCounts& counts, bool skip_zeros = false) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : counts) {
    if (value != 0 || !skip_zeros) out[key] = value;
  }
  return out;
}

[[noreturn]] void not_an_integer(const std::string& where, const std::string& key) {
  throw ConfigError(where + " " + quote(key) + " is no integer");
}

// nlohmann keeps object keys sorted: the order read back is the name order, not the printers'.
NamedCounts counts_from_json(const nlohmann::json* j, const std::string& where) {
  NamedCounts out;
  if (j == nullptr) return out;
  if (!j->is_object()) throw ConfigError(where + " is an object of integers");
  for (const auto& [key, value] : j->items()) {
    if (!value.is_number_integer()) not_an_integer(where, key);
    out.emplace_back(key, json_integer<std::int64_t>(value));
  }
  return out;
}

std::vector<std::string> strings_from_json(const nlohmann::json* j, const std::string& where) {
  std::vector<std::string> out;
  if (j == nullptr) return out;
  if (!j->is_array()) throw ConfigError(where + " is a list of strings");
  for (const nlohmann::json& s : *j) {
    if (!s.is_string()) throw ConfigError(where + " holds " + s.dump() + ", not a string");
    out.push_back(s.get<std::string>());
  }
  return out;
}

const nlohmann::json& list(ConfigReader& r, const char* key) {
  const nlohmann::json* j = r.raw(key);
  if (j == nullptr || !j->is_array()) r.fail(key, "is missing or not a list");
  return *j;
}

constexpr std::int64_t kMaxIndex = std::int64_t{1} << 40;

Function function_from_json(const nlohmann::json& j, const std::string& where, std::size_t units) {
  ConfigReader r(j, where);
  Function f;
  f.name = r.string("name", "");
  f.unit = static_cast<std::size_t>(r.integer("unit", 0, 0, static_cast<std::int64_t>(units) - 1));
  f.local = r.boolean("local", false);
  f.instructions = r.integer("instructions", 0, 0, kMaxIndex);
  f.blocks = r.integer("blocks", 0, 0, kMaxIndex);
  f.calls_in = r.integer("calls_in", 0, 0, kMaxIndex);
  f.text_bytes = r.integer("text_bytes", 0, 0, kMaxIndex);
  f.properties = counts_from_json(r.raw("properties"), where + " 'properties'");
  r.finish();
  if (f.name.empty()) r.fail("name", "is missing or empty");
  return f;
}

CallSite site_from_json(const nlohmann::json& j, const std::string& where, const Program& p) {
  ConfigReader r(j, where);
  // Required: the fallback of a missing index would be read as an index (a fuzzer's find).
  const auto index = [&](const char* key, std::size_t size) {
    if (r.raw(key) == nullptr) r.fail(key, "is missing");
    return static_cast<std::size_t>(r.integer(key, 0, 0, static_cast<std::int64_t>(size) - 1));
  };
  CallSite s;
  s.id = r.string("id", "");
  s.unit = index("unit", p.units.size());
  s.caller = index("caller", p.functions.size());
  s.callee = index("callee", p.functions.size());
  s.location = r.string("location", "");
  s.line = r.integer("line", 0, 0, kMaxIndex);
  s.copies = r.integer("copies", 1, 1, kMaxIndex);
  s.o2 = r.boolean("o2", false);
  s.oz = r.boolean("oz", false);
  s.calls = r.number("calls", 0, 0, 1e18);
  s.features = counts_from_json(r.raw("features"), where + " 'features'");
  s.never = r.string("never", "");
  r.finish();
  if (s.location.empty()) r.fail("location", "is missing or empty");
  if (!s.decidable() && (s.o2 || s.oz))
    r.fail("never", "marks a site clang inlined at -O2 or -Oz ('o2', 'oz')");
  if (s.id != site_id(p.units[s.unit], s.location, p.functions[s.callee].name))
    r.fail("id", "is not UNIT|LOCATION|CALLEE of the site's own fields");
  if (p.functions[s.caller].unit != s.unit || p.functions[s.callee].unit != s.unit)
    r.fail("unit", "differs from its caller's or callee's unit");
  return s;
}

}  // namespace

std::string site_id(const std::string& unit, const std::string& location,
                    const std::string& callee) {
  return unit + "|" + location + "|" + callee;
}

std::string base_location(const std::string& location) {
  return location.substr(0, location.find(" @ "));
}

nlohmann::json program_to_json(const Program& p) {
  nlohmann::json functions = nlohmann::json::array();
  for (const Function& f : p.functions) {
    functions.push_back({{"name", f.name},
                         {"unit", f.unit},
                         {"local", f.local},
                         {"instructions", f.instructions},
                         {"blocks", f.blocks},
                         {"calls_in", f.calls_in},
                         {"text_bytes", f.text_bytes},
                         {"properties", counts_to_json(f.properties)}});
  }
  nlohmann::json sites = nlohmann::json::array();
  for (const CallSite& s : p.sites) {
    nlohmann::json& site = sites.emplace_back();
    site = {{"id", s.id},
            {"unit", s.unit},
            {"caller", s.caller},
            {"callee", s.callee},
            {"location", s.location},
            {"line", s.line},
            {"copies", s.copies},
            {"o2", s.o2},
            {"oz", s.oz},
            {"calls", s.calls},
            {"features", counts_to_json(s.features, true)}};
    if (!s.decidable()) site["never"] = s.never;
  }
  nlohmann::json reference = nlohmann::json::object();
  for (const auto& [name, m] : p.reference)
    reference[name] = {{"text_bytes", m.text_bytes}, {"instructions", m.instructions}};
  return {{"kind", kProgramKind},
          {"schema_version", kProgramSchemaVersion},
          {"name", p.name},
          {"origin", p.origin},
          {"licence", p.licence},
          {"clang", p.clang_version},
          {"source_dir", p.source_dir},
          {"units", p.units},
          {"cflags", p.cflags},
          {"ldflags", p.ldflags},
          {"run", {{"args", p.run.args}, {"stdin", p.run.stdin_file}}},
          {"functions", std::move(functions)},
          {"sites", std::move(sites)},
          {"reference", std::move(reference)}};
}

Program program_from_json(const nlohmann::json& j, const std::string& what) {
  if (!j.is_object() || j.value("kind", nlohmann::json()) != kProgramKind)
    throw ConfigError(what + ": not a " + std::string(kProgramKind) + " file (no \"kind\": \"" +
                      kProgramKind + "\")");
  ConfigReader r(j, what);
  r.string("kind", "");
  const std::int64_t version = r.integer("schema_version", 0, 0, 1 << 20);
  if (version == 1)
    r.fail("schema_version",
           "is 1: a file from before the sites clang never inlines (varargs, "
           "noinline) were marked; extract the program again");
  if (version != kProgramSchemaVersion)
    r.fail("schema_version",
           "is not " + std::to_string(kProgramSchemaVersion) + ", the version this build reads");
  Program p;
  p.name = r.string("name", "");
  p.origin = r.string("origin", "");
  p.licence = r.string("licence", "");
  p.clang_version = r.string("clang", "");
  p.source_dir = r.string("source_dir", ".");
  p.units = strings_from_json(r.raw("units"), what + " 'units'");
  if (p.units.empty()) r.fail("units", "is missing or empty");
  p.cflags = strings_from_json(r.raw("cflags"), what + " 'cflags'");
  p.ldflags = strings_from_json(r.raw("ldflags"), what + " 'ldflags'");
  if (const nlohmann::json* run = r.raw("run")) {
    ConfigReader rr(*run, what + " 'run'");
    p.run.args = strings_from_json(rr.raw("args"), what + " 'run' 'args'");
    p.run.stdin_file = rr.string("stdin", "");
    rr.finish();
  }
  const nlohmann::json& functions = list(r, "functions");
  for (std::size_t i = 0; i < functions.size(); ++i)
    p.functions.push_back(
        function_from_json(functions[i], what + " function " + std::to_string(i), p.units.size()));
  const nlohmann::json& sites = list(r, "sites");
  std::set<std::string> ids;
  for (std::size_t i = 0; i < sites.size(); ++i) {
    p.sites.push_back(site_from_json(sites[i], what + " site " + std::to_string(i), p));
    if (!ids.insert(p.sites.back().id).second)
      throw ConfigError(what + " site " + std::to_string(i) + ": id " + quote(p.sites.back().id) +
                        " appears twice");
  }
  if (const nlohmann::json* reference = r.raw("reference")) {
    if (!reference->is_object()) r.fail("reference", "is an object of measurements");
    for (const auto& [name, m] : reference->items()) {
      ConfigReader mr(m, what + " reference " + quote(name));
      Measurement measured{mr.integer("text_bytes", 0, 0, kMaxIndex),
                           mr.number("instructions", 0, 0, 1e18)};
      mr.finish();
      p.reference[name] = measured;
    }
  }
  r.finish();
  if (p.name.empty()) r.fail("name", "is missing or empty");
  return p;
}

}  // namespace sysgym::inlining
