// The inline family's rows of the catalogue: program files, decision sets and the model's
// requests, each damaged one way, fed to the core's readers (the CLI, the npm package and the
// playground meet them there).
#include <nlohmann/json.hpp>

#include "base/data_store.hpp"
#include "base/json_text.hpp"
#include "catalogue/bad_inputs.hpp"
#include "inline/bisection.hpp"
#include "inline/calibration.hpp"
#include "inline/embedded_program.hpp"
#include "inline/inline_env.hpp"
#include "inline/model_view.hpp"

namespace sysgym::catalogue {
namespace {

using nlohmann::json;

// The compiled-in kernels program, as its file holds it.
json kernels_file() {
  return parse_json_text(inlining::embedded_kernels_program(), "kernels.json");
}

void read_program_file(const json& j) {
  inlining::program_from_json(j, "mine.json");
}

// Set `index` of a samples file (`measure --decisions FILE#N`, bisect) for kernels.
void sample_of_kernels(const json& samples, std::size_t index) {
  const inlining::Program p = inlining::program_from_json(kernels_file(), "kernels.json");
  inlining::sample_decisions(p, samples, index, "calibration.samples.json");
}

json samples_file() {
  return {{"kind", "sysgym-inline-samples"},
          {"schema_version", 1},
          {"samples", {{{"program", "lz4"}, {"decisions", "0"}, {"text_bytes", 1}}}}};
}

// A model request (`sysgym inline estimate`, sysgym.inline.estimate) on kernels.
void model_request(const json& r) {
  inlining::InlineEnv env(json::object(), DataStore());
  env.reset(0);
  inlining::model_view(env, r, "inline.estimate request");
}

}  // namespace

std::vector<BadInput> inline_bad_inputs() {
  return {
      {"inline program", "another kind of JSON",
       [] {
         read_program_file({{"kind", "sysgym-policy"}});
       }},
      {"inline program", "schema version 3",
       [] { read_program_file(edited(kernels_file(), "/schema_version"_json_pointer, 3)); }},
      {"inline program", "schema version 1 (sites clang never inlines not marked)",
       [] { read_program_file(edited(kernels_file(), "/schema_version"_json_pointer, 1)); }},
      {"inline program", "a site clang never inlines marked inlined at -O2",
       [] {
         json j = kernels_file();
         j["sites"][0]["never"] = "varargs";
         j["sites"][0]["o2"] = true;
         read_program_file(j);
       }},
      {"inline program", "a site whose callee index is past the functions",
       [] { read_program_file(edited(kernels_file(), "/sites/0/callee"_json_pointer, 4000)); }},
      // The fuzzer's find: a missing index was read as the index -1.
      {"inline program", "a site without its caller's index",
       [] {
         json j = kernels_file();
         j["sites"][1].erase("caller");
         read_program_file(j);
       }},
      {"inline program", "a site id that does not match its fields",
       [] {
         read_program_file(edited(kernels_file(), "/sites/0/id"_json_pointer, "kernels.c|x:1:2|y"));
       }},
      {"inline program", "a site listed twice",
       [] {
         json j = kernels_file();
         j["sites"].push_back(j["sites"][0]);
         read_program_file(j);
       }},
      {"inline decisions", "an id that is no call site",
       [] {
         model_request({{"decisions", {"kernels.c|main:9:9|next_random"}}});
       }},
      {"inline decisions", "another program's file",
       [] {
         model_request({{"decisions",
                         {{"kind", "sysgym-inline-decisions"},
                          {"schema_version", 1},
                          {"program", "lz4"},
                          {"inline", json::array()}}}});
       }},
      {"inline decisions", "3 bits for 39 sites",
       [] {
         model_request({{"decisions", {1, 0, 1}}});
       }},
      {"inline decisions", "an unknown set's name",
       [] {
         model_request({{"decisions", "Os"}});
       }},
      {"inline samples", "a set past the file's end", [] { sample_of_kernels(samples_file(), 1); }},
      {"inline samples", "another program's set", [] { sample_of_kernels(samples_file(), 0); }},
      {"inline bisect", "two sets that inline the same sites",
       [] {
         const inlining::Program p = inlining::program_from_json(kernels_file(), "kernels.json");
         inlining::Bisection(p, inlining::decision_set(p, "O2"), inlining::decision_set(p, "O2"),
                             0.25);
       }},
      {"inline request", "a misspelt key",
       [] {
         model_request({{"decison", "O2"}});
       }},
  };
}

}  // namespace sysgym::catalogue
