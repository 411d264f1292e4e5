// The test family in a WebAssembly module of its own (build/wasm/test-package), registered the way
// a family registers its wasm extras: one EMSCRIPTEN_BINDINGS block, run when the module loads.
// The Node and browser tests then check that the generic handles, check_env and the web shell
// serve an env that no line of wasm/ or web/ names. `testBusyRounds` runs the profiler's
// known-duration loops (tests/profiling/busy_loops.hpp) for the same test under Node.
#include <emscripten/bind.h>

#include "../../wasm/runtime.hpp"
#include "env/line_walk_env.hpp"
#include "profiling/busy_loops.hpp"

namespace {

// Per operation, its loops' own timing in ms (JSON).
std::string busy_rounds_json() {
  return nlohmann::json(sysgym::profiling::known_loops::busy_rounds()).dump();
}

}  // namespace

EMSCRIPTEN_BINDINGS(sysgym_test_families) {
  sysgym::testing::register_line_walk(sysgym::wasm::runtime().envs,
                                      sysgym::wasm::runtime().policies);
  emscripten::function("testBusyRoundsJson", &busy_rounds_json);
}
