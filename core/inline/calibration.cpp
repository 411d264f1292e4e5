#include "inline/calibration.hpp"

#include <optional>
#include <string_view>

#include "base/error.hpp"
#include "base/quote.hpp"
#include "env/config_reader.hpp"

namespace sysgym::inlining {

std::vector<Decisions> calibration_sets(const Program& p, std::size_t count, Rng& rng,
                                        double max_share) {
  std::vector<Decisions> sets;
  for (const std::string& name : decision_set_names())
    sets.push_back(decision_set(p, name));
  for (std::size_t k = 0; k < count; ++k) {
    const double share = max_share * (static_cast<double>(k) + 0.5) / static_cast<double>(count);
    Decisions d(p.sites.size(), false);
    for (std::size_t i = 0; i < d.size(); ++i) {
      if (p.sites[i].decidable()) d[i] = rng.uniform() < share;
    }
    sets.push_back(std::move(d));
  }
  return sets;
}

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

// Four sites a digit, the first site the digit's highest bit (a digit's binary reads in site
// order); the last digit's unused bits are 0.
std::string to_hex(const Decisions& d) {
  std::vector<unsigned> digits((d.size() + 3) / 4, 0);
  for (std::size_t i = 0; i < d.size(); ++i)
    digits[i / 4] |= d[i] ? 8u >> (i % 4) : 0u;
  std::string hex;
  for (unsigned digit : digits)
    hex.push_back(kHexDigits[digit]);
  return hex;
}

// Empty when `text` is not `sites` decisions in `version`'s encoding.
std::optional<Decisions> from_text(const std::string& text, std::size_t sites, int version) {
  if (version == 1) {
    if (text.size() != sites || text.find_first_not_of("01") != std::string::npos) return {};
    Decisions d;
    for (char c : text)
      d.push_back(c == '1');
    return d;
  }
  if (text.size() != (sites + 3) / 4) return {};
  Decisions d(text.size() * 4, false);
  for (std::size_t k = 0; k < text.size(); ++k) {
    const std::size_t digit = std::string_view(kHexDigits).find(text[k]);
    if (digit == std::string_view::npos) return {};
    for (std::size_t b = 0; b < 4; ++b)
      d[4 * k + b] = (digit & (8u >> b)) != 0;
  }
  for (std::size_t i = sites; i < d.size(); ++i) {
    if (d[i]) return {};
  }
  d.resize(sites);
  return d;
}

}  // namespace

nlohmann::json samples_to_json(const std::vector<const Program*>& programs,
                               const std::vector<CalibrationSample>& samples) {
  nlohmann::json list = nlohmann::json::array();
  for (const CalibrationSample& s : samples) {
    list.push_back({{"program", programs[s.program]->name},
                    {"decisions", to_hex(s.decisions)},
                    {"text_bytes", s.text_bytes},
                    {"instructions", s.instructions}});
  }
  return {{"kind", "sysgym-inline-samples"},
          {"schema_version", kSamplesSchemaVersion},
          {"samples", list}};
}

namespace {

// The samples of a samples file and its version, its kind checked.
std::pair<const nlohmann::json*, int> samples_list(const nlohmann::json& j,
                                                   const std::string& what) {
  if (!j.is_object() || j.value("kind", nlohmann::json()) != "sysgym-inline-samples")
    throw ConfigError(what + ": not a sysgym-inline-samples file");
  ConfigReader r(j, what);
  r.string("kind", "");
  const auto version = static_cast<int>(r.integer("schema_version", 0, 0, 1 << 20));
  if (version != 1 && version != kSamplesSchemaVersion)
    r.fail("schema_version", "is not 1 or 2, the versions this build reads");
  const nlohmann::json* list = r.raw("samples");
  if (list == nullptr || !list->is_array()) r.fail("samples", "is missing or not a list");
  r.finish();
  return {&j.at("samples"), version};  // the reader's own view ends with it
}

CalibrationSample read_sample(const std::vector<const Program*>& programs,
                              const nlohmann::json& entry, int version, const std::string& where) {
  ConfigReader sr(entry, where);
  const std::string name = sr.string("program", "");
  const std::string bits = sr.string("decisions", "");
  CalibrationSample s;
  s.text_bytes = sr.number("text_bytes", 0, 1, 1e15);
  s.instructions = sr.number("instructions", 0, 0, 1e18);
  sr.finish();
  s.program = programs.size();
  for (std::size_t p = 0; p < programs.size(); ++p) {
    if (programs[p]->name == name) s.program = p;
  }
  if (s.program == programs.size())
    throw ConfigError(where + ": program " + quote(name) + " is not among those given");
  const std::size_t sites = programs[s.program]->sites.size();
  std::optional<Decisions> d = from_text(bits, sites, version);
  if (!d)
    throw ConfigError(where + ": 'decisions' is not " +
                      (version == 1 ? "one 0 or 1 per site" : "one hex digit per four sites") +
                      " of " + quote(name) + " (" + std::to_string(sites) + " sites)");
  s.decisions = std::move(*d);
  return s;
}

}  // namespace

std::vector<CalibrationSample> samples_from_json(const std::vector<const Program*>& programs,
                                                 const nlohmann::json& j, const std::string& what) {
  const auto [list, version] = samples_list(j, what);
  std::vector<CalibrationSample> out;
  for (std::size_t i = 0; i < list->size(); ++i)
    out.push_back(
        read_sample(programs, (*list)[i], version, what + " sample " + std::to_string(i)));
  return out;
}

Decisions sample_decisions(const Program& program, const nlohmann::json& j, std::size_t index,
                           const std::string& what) {
  const auto [list, version] = samples_list(j, what);
  if (index >= list->size())
    throw ConfigError(what + ": no sample " + std::to_string(index) + "; it holds " +
                      std::to_string(list->size()) + " (numbered from 0)");
  const std::string where = what + " sample " + std::to_string(index);
  const nlohmann::json& entry = (*list)[index];
  const nlohmann::json name =
      entry.is_object() ? entry.value("program", nlohmann::json()) : nlohmann::json();
  if (name.is_string() && name != program.name)
    throw ConfigError(where + " is of program " + quote(name.get<std::string>()) + ", not " +
                      quote(program.name));
  return read_sample({&program}, entry, version, where).decisions;
}

}  // namespace sysgym::inlining
