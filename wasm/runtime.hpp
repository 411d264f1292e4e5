// What every handle shares: the module's registries and data, the error slot that
// last_error_kind()/last_error_message() read, and small adapters between core and JS.
#pragma once

#include <emscripten/val.h>

#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "base/data_store.hpp"
#include "base/error.hpp"
#include "env/env.hpp"
#include "env/policy.hpp"
#include "env/registry.hpp"

namespace sysgym::wasm {

struct Runtime {
  // What JS added with data.add; families read their data by name from it (memtier: trace
  // pairs).
  std::shared_ptr<DataStore> data = std::make_shared<DataStore>();
  Registry envs;
  PolicyRegistry policies;
  Runtime();
};

Runtime& runtime();

// The host's files behind the data store (Node: wasm/js/node_files.mjs), through JS callbacks
// {has(name), list(prefix), read(name) -> {bytes} | {error}} that never throw.
class HostFiles : public DataSource {
 public:
  HostFiles(emscripten::val callbacks, std::string shipped_prefix)
      : callbacks_(std::move(callbacks)), shipped_prefix_(std::move(shipped_prefix)) {}
  bool has(const std::string& name) const override;
  std::vector<std::string> names_with_prefix(const std::string& prefix) const override;
  DataBytes read(const std::string& name) const override;  // IoError naming the file
  std::string missing(const std::string& name) const override;
  std::string shipped_prefix() const override { return shipped_prefix_; }

 private:
  emscripten::val callbacks_;
  std::string shipped_prefix_;
};
void use_host_files(emscripten::val callbacks, const std::string& shipped_prefix);

void record_error(std::string kind, std::string message);

// Runs f; on a sysgym (or other) exception records it and returns false.
template <typename F>
bool guarded(F&& f) {
  try {
    f();
    return true;
  } catch (const Error& e) {
    record_error(e.kind(), e.what());
  } catch (const nlohmann::json::exception& e) {
    record_error("ConfigError", std::string("invalid JSON: ") + e.what());
  } catch (const std::bad_alloc&) {
    record_error("Error",
                 "out of memory: the trace, window count or network needs more than the 2 GiB a "
                 "WebAssembly heap may grow to; use the native sysgym tool for inputs this large");
  } catch (const std::exception& e) {
    record_error("Error", e.what());
  }
  return false;
}

// An empty text is an empty object (JS passes "" for "no config").
nlohmann::json parse(const std::string& text);
// The config `policy` (with `parameters`) runs env `id` on: `given` over the policy's base config
// (a learned policy's training settings), as the native run lays --config over it.
nlohmann::json config_for_policy(const std::string& id, const std::string& policy,
                                 const nlohmann::json& parameters, nlohmann::json given);
// A seed as decimal text, parsed as the native --seed is (throws ConfigError).
std::uint64_t seed_value(const std::string& text);

// A zero-copy typed-array view of core memory, valid until the memory grows.
template <typename T>
emscripten::val view(std::span<const T> data) {
  return emscripten::val(emscripten::typed_memory_view(data.size(), data.data()));
}

// A step's outcome as the JS layer reads it: [reward, terminated, truncated, info...].
void store_result(const StepResult& r, std::vector<double>& out);

// Spaces, config and info keys of an env (facts and observation layout for memtier).
nlohmann::json describe(const Env& env);

// The env's frame arrays: [{name, dtype, size}], and a view of array `index` (undefined when
// there is none), valid until the env steps or memory grows.
nlohmann::json frame_layout(const Env& env);
emscripten::val frame_array_view(const Env& env, int index);

}  // namespace sysgym::wasm
