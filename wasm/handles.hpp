// The C++ side of the npm package: handles that own core objects and expose their buffers to JS
// as zero-copy views. Every call catches sysgym errors and reports failure by its return value;
// the JS layer then reads last_error_kind()/last_error_message() and throws an Error subclass,
// so no C++ exception ever crosses into JavaScript.
#pragma once

#include <emscripten/val.h>

#include <memory>
#include <string>
#include <vector>

#include "base/rng.hpp"
#include "env/space.hpp"
#include "env/vector_env.hpp"

namespace sysgym::wasm {

std::string last_error_kind();
std::string last_error_message();

// Module-wide registries and the in-memory trace source.
std::string env_ids_json();
// The policies that run on `env` (an id or name), and its config schema; "" on failure.
std::string policies_json(const std::string& env);
std::string config_schema_json(const std::string& env);
// `sysgym list --json`: every registered env's id and one-line summary.
std::string env_list_json();
// The info keys of `env`'s steps, from an env made on its example config.
std::string info_keys_json(const std::string& env);
// check_env over `id` (core/env/check_env.hpp) made from its example config with --config's
// text and the KEY=VALUE settings (a JSON list) over it: the passed checks as a JSON list, ""
// on failure.
std::string check_env_json(const std::string& id, const std::string& config_json,
                           const std::string& settings_json, const std::string& seed);
// Adds (or replaces) named bytes in the data store; false on failure.
bool add_data(const std::string& name, const std::string& bytes);
// Seeds arrive as decimal text (a JS number cannot hold every 64-bit seed), checked by the JS
// layer with check_seed_text; "" on failure.
std::string check_seed_text(const std::string& text, const std::string& name);
// An integer flag's decimal text checked against [min, max] (exact up to 2^53) as natively.
std::string check_integer_text(const std::string& text, const std::string& name, double min,
                               double max);
// The registered id an env id or bare name stands for; "" on failure (UnknownNameError).
std::string resolve_env_id(const std::string& env);

// Empty string on failure. `env`: an id or bare name.
std::string run_episode_json(const std::string& env, const std::string& config_json,
                             const std::string& policy, const std::string& policy_config_json,
                             const std::string& seed, bool record);
std::string replay_episode_json(const std::string& episode_json);

// The exact text `sysgym run|compare [--json]` prints (empty string on failure), for the package's
// bin: the JSON report with `json`, else the text tables. run returns a JSON array [report text,
// recorded episode text or ""]. Both take any env:
// `env` as the command line named it, --config's text (or ""), and the KEY=VALUE settings (a
// JSON list of strings, --set first, then those after ENV), applied as natively.
std::string run_report_text(const std::string& env, const std::string& config_json,
                            const std::string& settings_json, const std::string& policy,
                            const std::string& policy_config_json, const std::string& seed,
                            bool record, bool json);
// `sysgym describe [ENV] [KEY=VALUE]... [--json]` (ENV "": the first registered env), as natively:
// keys not given come from the env's example config.
std::string describe_report_text(const std::string& env, const std::string& config_json,
                                 const std::string& settings_json, bool json);
std::string compare_report_text(const std::string& env, const std::string& config_json,
                                const std::string& settings_json, const std::string& names_json,
                                const std::string& seed, bool json);

// Draws members of a space with a generator of its own, as Gymnasium's Space.seed() and sample()
// do; `batch` members at a time (a vector env's batched space: one member per env). The same seed
// gives the same draws natively and in wasm (the core's Rng and Space::sample_into).
class SpaceSampler {
 public:
  SpaceSampler(const Space& space, std::size_t batch);
  void seed(std::uint64_t seed) { rng_.reseed(seed); }
  void sample();
  emscripten::val view() const;

 private:
  Space space_;
  Rng rng_{0};
  std::vector<double> out_;
};

// Which space a sampler draws from (JS passes the number).
enum SpaceRole { kActionSpace = 0, kObservationSpace = 1 };

class EnvHandle {
 public:
  // nullptr on failure.
  static EnvHandle* make(const std::string& id, const std::string& config_json);

  bool reset(const std::string& seed, bool seeded, const std::string& options_json);
  // Steps with the action JS wrote into action_view().
  bool step();
  bool contains_action() const;  // is action_view() inside the action space?
  // Reseeds the sampler of space `role` (a SpaceRole); false with the error recorded for a bad
  // seed.
  bool seed_space(int role, const std::string& seed);
  // Draws from space `role` into sample_view(role).
  void sample_space(int role);
  emscripten::val sample_view(int role) const;

  emscripten::val observation_view() const;
  emscripten::val action_view();
  emscripten::val result_view() const;          // [reward, terminated, truncated, info...]
  std::string describe_json() const;            // spaces, config, facts, layout, info keys
  std::string summary_json() const;             // Env::episode_summary()
  std::string frame_layout_json() const;        // [{name, dtype, size}] of Env::frame()
  emscripten::val frame_view(int index) const;  // one frame array, zero-copy

 private:
  explicit EnvHandle(std::unique_ptr<Env> env);
  std::unique_ptr<Env> env_;
  std::vector<double> action_;
  std::vector<double> result_;
  SpaceSampler samplers_[2];
};

class VectorHandle {
 public:
  static VectorHandle* make(const std::string& id, const std::string& config_json, int count);

  bool reset(const std::string& seed, bool seeded);
  bool step();  // actions from actions_view(): count rows of the action size

  int size() const { return static_cast<int>(envs_.size()); }
  emscripten::val actions_view();
  emscripten::val observations_view() const;
  emscripten::val rewards_view() const;
  emscripten::val terminated_view() const;
  emscripten::val truncated_view() const;
  emscripten::val infos_view() const;
  emscripten::val final_observations_view() const;
  std::string describe_json() const;
  // The batched spaces' samplers: one member per env in each draw.
  bool seed_space(int role, const std::string& seed);
  void sample_space(int role);
  emscripten::val sample_view(int role) const;

 private:
  explicit VectorHandle(VectorEnv envs);
  VectorEnv envs_;
  std::vector<double> actions_;
  SpaceSampler samplers_[2];
};

}  // namespace sysgym::wasm
