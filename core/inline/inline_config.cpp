#include "inline/inline_config.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdint>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>

#include "base/error.hpp"
#include "base/json_text.hpp"
#include "base/names.hpp"
#include "base/quote.hpp"
#include "env/config_reader.hpp"
#include "inline/embedded_program.hpp"
#include "profiling/ops.hpp"
#include "profiling/profiler.hpp"

namespace sysgym::inlining {
namespace {

constexpr const char* kContext = "inline-v0 config";
constexpr const char* kEmbedded = "(compiled in) kernels";

std::string shipped_name(const DataSource& data, const std::string& file) {
  return data.shipped_prefix() + "inline/" + file;
}

// Program files are parsed once per process and content (SQLite's is 4.7 MB and a vector env
// makes many envs); a file replaced under its name (a program dropped again in the browser) is
// parsed anew: the bytes' hash is part of the key, and hashing costs a fraction of parsing.
std::shared_ptr<const LoadedProgram> load(const DataSource& data, const std::string& name) {
  const profiling::Scope scope(profiling::ops::kDataLoad);
  const bool embedded = name == kEmbedded;
  DataBytes bytes;
  std::string_view text = embedded_kernels_program();
  if (!embedded) {
    bytes = read_data(data, name, std::string(kContext) + ": 'program'");
    text = {reinterpret_cast<const char*>(bytes.bytes.data()), bytes.bytes.size()};
  }
  const std::uint64_t hash = XXH3_64bits(text.data(), text.size());
  static std::mutex mutex;
  static std::map<std::pair<std::string, std::uint64_t>, std::weak_ptr<const LoadedProgram>> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  std::weak_ptr<const LoadedProgram>& cached = cache[{name, hash}];
  if (auto hit = cached.lock()) return hit;
  auto loaded = std::make_shared<const LoadedProgram>(
      program_from_json(parse_json_text(text, embedded ? "kernels" : name), name));
  if (loaded->program.reference.count("never") == 0)
    throw ConfigError(std::string(kContext) + ": " + quote(name) +
                      " has no 'never' reference measurement (extract it without --no-run)");
  cached = loaded;
  return loaded;
}

std::vector<std::shared_ptr<const LoadedProgram>> programs_of(const std::string& name,
                                                              const DataSource& data) {
  const auto shipped = shipped_programs(data);
  std::vector<std::shared_ptr<const LoadedProgram>> out;
  std::vector<std::string> names = {"train", "held-out"};
  for (const auto& [program, split] : shipped) {
    names.push_back(program);
    if (program != name && split != name) continue;
    const std::string file = shipped_name(data, program + ".json");
    // A program the manifest marks "shipped": false is extracted on the machine.
    if (!data.has(file))
      throw ConfigError(std::string(kContext) + ": the program " + quote(program) +
                        " is listed but not extracted here (" + data.missing(file) +
                        "): run `node data/inline/regenerate.mjs " + program + "`");
    out.push_back(load(data, file));
  }
  if (!out.empty()) return out;
  if (name == "kernels") return {load(data, kEmbedded)};
  if (name.ends_with(".json") || data.has(name)) return {load(data, name)};
  // Without the manifest only the splits are listed, which hides why a shipped name is unknown.
  const std::string manifest = shipped_name(data, "manifest.json");
  throw UnknownNameError(
      std::string(kContext) + ": " + unknown_name_message("program", name, names) +
      " (or a program file from `sysgym inline extract`)" +
      (shipped.empty() ? "; no shipped programs were found: " + data.missing(manifest)
                       : std::string()));
}

}  // namespace

const ConfigSchema& inline_schema() {
  static const ConfigSchema schema({
      value_key("program", "kernels",
                "a shipped program (sqlite, expat, argon2, kernels, lmdb, lz4, bzip2), a split "
                "drawn from per episode (train, held-out), or a program file"),
      policy_task(choice_key(
          "objective", "size", {"size", "instructions", "mix"},
          "what a decision set is scored on: text bytes, dynamic instructions, or a mix")),
      policy_task(number_key("size_weight", 0.5, 0, 1, "objective=mix: the size ratio's weight")),
      policy_task(number_key(
          "size_limit", 0, 0, 100,
          "objectives instructions and mix: text as a share of the baseline's above which "
          "each point costs ten (1.05: the goal's +5 %); 0: no limit")),
      policy_task(choice_key("baseline", "auto", {"auto", "Oz", "O2", "never"},
                             "the decisions the score is relative to (clang's, as the program "
                             "records them); auto: Oz for objective=size, O2 otherwise")),
      choice_key("reward", "final", {"final", "dense"},
                 "final: 1 - cost / the baseline's cost at the end (MLGO's); dense: the change of "
                 "that score after each decision, undecided sites not inlined"),
      value_key("cost_model", nlohmann::json::object(),
                "cost model parameters replaced (from `sysgym inline calibrate -o`)"),
  });
  return schema;
}

std::vector<std::pair<std::string, std::string>> shipped_programs(const DataSource& data) {
  const std::string manifest = shipped_name(data, "manifest.json");
  std::vector<std::pair<std::string, std::string>> out;
  if (!data.has(manifest)) return out;
  const nlohmann::json j = read_data_json(data, manifest, kContext);
  for (const nlohmann::json& p : j.at("programs"))
    out.emplace_back(p.at("name").get<std::string>(), p.at("split").get<std::string>());
  return out;
}

InlineConfig read_inline_config(const nlohmann::json& config, const DataSource& data) {
  ConfigReader reader(config, kContext);
  const ConfigSchema& k = inline_schema();
  InlineConfig out;
  const std::string program = reader.string("program", "kernels");
  out.programs = programs_of(program, data);
  const std::string objective = reader.choice(k.at("objective"));
  out.objective = objective == "size"           ? Objective::kSize
                  : objective == "instructions" ? Objective::kInstructions
                                                : Objective::kMix;
  out.size_weight = reader.number(k.at("size_weight"));
  out.size_limit = reader.number(k.at("size_limit"));
  out.baseline = reader.choice(k.at("baseline"));
  if (out.baseline == "auto") out.baseline = out.objective == Objective::kSize ? "Oz" : "O2";
  out.dense = reader.choice(k.at("reward")) == "dense";
  const nlohmann::json* model = reader.raw("cost_model");
  out.model = CostModel::from_json(model ? *model : nlohmann::json::object(),
                                   std::string(kContext) + ": 'cost_model'");
  reader.resolve("cost_model", out.model.to_json());
  reader.finish();
  for (const auto& p : out.programs) {
    if (p->model.bottom_up_sites().empty())
      throw ConfigError(std::string(kContext) + ": " + quote(p->program.name) +
                        " has no call site to decide (" + std::to_string(p->program.sites.size()) +
                        " sites, none that clang may inline)");
  }
  out.resolved = reader.resolved();
  return out;
}

}  // namespace sysgym::inlining
