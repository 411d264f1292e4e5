#!/usr/bin/env bash
# The one entry point for people and CI.
#   ./sysgym.sh demo    install dependencies, build, and run a demo on the shipped data
#   ./sysgym.sh test    build (release, ASan/UBSan debug, wasm) and run every test suite,
#                       clang-tidy and a short fuzzing run
#   ./sysgym.sh build   build the release tool only (build/native-release/sysgym)
#   ./sysgym.sh web     build the browser playground and serve it on http://127.0.0.1:8080/
#   ./sysgym.sh fuzz    run every libFuzzer target (tests/fuzz/run.sh [SECONDS] [TARGET...])
#   ./sysgym.sh bench   build and run the benchmarks
#   ./sysgym.sh catalogue  rewrite the docs' generated parts (bad inputs, config keys, CLI help, screenshot)
#   ./sysgym.sh setup   install the Debian packages and the web front end's npm packages
set -euo pipefail
cd "$(dirname "$0")"

# Debian packages and what each is for (the README's dependency table says why).
PACKAGES=(
  cmake g++ make          # the build
  libcli11-dev            # command-line parsing of the sysgym tool
  libre2-dev pkg-config   # linear-time regular expressions for `sysgym memtier trace` markers
  nlohmann-json3-dev      # JSON configs, headers of the binary format, --json output
  libxxhash-dev           # XXH3 checksums of binary files (header-only use)
  libeigen3-dev           # matrices of the learned agents (header-only; compiles to wasm)
  coinor-libcbc-dev       # COIN-OR CBC: the MILP solver of tensorplace's ILP (AutoTM's oracle)
  liblemon-dev            # LEMON network simplex: memtier's exact dynamic oracle (header-only use)
  libopenblas0-serial     # OpenBLAS sgemm, one thread: the yardstick of `sysgym looptune bench`
  libgtest-dev libgmock-dev  # unit and CLI tests
  libbenchmark-dev        # throughput benchmarks
  emscripten              # the WebAssembly build of the npm package (em++ 3.1.6, Embind)
  valgrind                # `sysgym memtier trace` (lackey) and `sysgym inline` (callgrind counts instructions)
  chromium                # the browser the playground's tests drive (playwright-core, headless)
  clang libclang-rt-14-dev  # libFuzzer and its sanitizer runtimes for the fuzz targets
  llvm-14                 # the inline family: opt's inline-cost and func-properties printers, llvm-size
  dpkg-dev                # dpkg-source: unpacks the inline family's Debian source packages (regenerate.mjs)
  clang-tidy-14           # static checks of core/ and native/ (tests/lint/tidy.sh)
  time                    # /usr/bin/time: the native tool's peak memory in wasm/bench/memory.mjs
  python3-dev python3-pybind11  # the Python package: the core bound with pybind11
  python3-numpy python3-pytest  # its arrays, and its tests
  python3-pip python3-venv python3-setuptools python3-wheel  # `pip install ./python`, offline
  libopenmpi-dev openmpi-bin  # `sysgym train --distributed`: data-parallel PPO across MPI ranks
)
JOBS="$(nproc 2>/dev/null || echo 2)"

setup() {
  debian_setup
  web_setup
}

debian_setup() {
  local missing=()
  for package in "${PACKAGES[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all Debian packages present"
    return
  fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The web front end's npm packages (web/package-lock.json), installed once per lockfile change.
web_setup() {
  if [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules/.package-lock.json ]; then
    echo "setup: installing the web front end's npm packages"
    (cd web && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

build_web() {
  build_preset wasm >/dev/null
  web_setup
  node web/build.mjs
}

build_preset() {
  # Emscripten's JS optimizer needs Debian's acorn, which this node does not look for by itself.
  export NODE_PATH=/usr/share/nodejs
  cmake --preset "$1" >/dev/null
  cmake --build --preset "$1" -j "$JOBS"
}

demo() {
  setup
  build_preset native-release
  local sysgym=build/native-release/sysgym
  local pair="--ddr data/synth/phased.ddr.csv --hbm data/synth/phased.hbm.csv"
  local hot=0x7f3a00000000:0x7f3a01000000
  local out
  out="$(mktemp -d)"
  echo
  echo "== what the shipped DDR trace holds"
  $sysgym memtier inspect data/synth/phased.ddr.csv
  echo
  echo "== MemAI-compatible estimate with phase 0's hot set in HBM, against the modeled mixed run"
  $sysgym memtier estimate $pair --hbm-range "$hot" --measured data/synth/phased.mixed.csv
  echo
  echo "== the same with instruction-aligned windows"
  $sysgym memtier estimate $pair --mode aligned --hbm-range "$hot" --measured data/synth/phased.mixed.csv
  echo
  echo "== preprocess once, then what-if estimates from the binary file"
  $sysgym memtier preprocess $pair --mode aligned -o "$out/phased.bin"
  $sysgym memtier estimate --input "$out/phased.bin" --hbm-range "$hot" --json
  echo
  echo "== the memtier env: every baseline, heuristic and oracle with HBM for 10 % of the footprint"
  $sysgym compare memtier trace="$out/phased.bin" hbm_capacity=10%
  echo
  echo "== one episode of LRU, recorded for replay"
  $sysgym run memtier trace="$out/phased.bin" hbm_capacity=10% --policy lru \
    --record "$out/episode.json"
  echo
  echo "== tensorplace (AutoTM): ResNet-50's training iteration, AutoTM's ILP against the heuristics"
  $sysgym tensorplace sweep --model resnet50 --batch 32 --ratios 0,1:1,4:1
  $sysgym compare tensorplace model=resnet50 batch=32 fast_memory=1:1
  echo
  echo "== the synchronous ILP's plan, run in the env as the plan policy (the same iteration time)"
  $sysgym tensorplace ilp --model resnet50 --batch 32 --fast-memory 1:1 --variant sync --gap 0.01 \
    --write-plan "$out/plan.json"
  $sysgym run tensorplace model=resnet50 batch=32 fast_memory=1:1 --policy plan \
    --policy-config "$out/plan.json"
  echo
  echo "== looptune (LoopTune): a matmul's loop nest tuned by annealing and by the shipped DQN, measured here"
  $sysgym looptune tune --kernel matmul:256x256x256 --search anneal --budget 1s
  $sysgym looptune tune --kernel matmul:256x256x256 --search learned:data/policies/looptune/looptune-dqn.json
  echo
  echo "== the npm package (WebAssembly): the same estimate from Node, byte for byte"
  build_preset wasm >/dev/null
  node build/wasm/package/sysgym-cli.mjs memtier estimate --input "$out/phased.bin" --hbm-range "$hot" --json \
    > "$out/wasm.json"
  $sysgym memtier estimate --input "$out/phased.bin" --hbm-range "$hot" --json > "$out/native.json"
  cmp "$out/wasm.json" "$out/native.json" && echo "identical: $(grep estimated_ms "$out/wasm.json")"
  rm -rf "$out"
  echo
  echo "== the browser playground (static files in web/dist)"
  build_web
  echo
  echo "demo done; the tool is at $sysgym (try: $sysgym --help); ./sysgym.sh web serves the playground"
}

# Prints "== NAME" and, when the next stage starts (or stage_done runs), how long this one took:
# CI must stay well under its limit as families are added, so every stage shows its cost.
stage() {
  stage_done
  STAGE_NAME="$1"
  STAGE_START=$SECONDS
  echo "== $1"
}
stage_done() {
  if [ -n "${STAGE_NAME:-}" ]; then
    echo "   [stage took $((SECONDS - STAGE_START)) s: ${STAGE_NAME}]"
  fi
  STAGE_NAME=""
}

run_tests() {
  stage "setup and builds: release (g++), ASan/UBSan debug with the fuzz targets (clang), wasm"
  setup
  build_preset native-release
  build_preset native-debug
  build_preset wasm
  # The package plus tests/env's family: a family no line of wasm/ or web/ names (Node and browser).
  cmake --build --preset wasm --target sysgym_wasm_test_families -j "$JOBS"
  stage "tests, release build"
  ctest --preset native-release -j "$JOBS"
  stage "tests, debug build with AddressSanitizer + UBSan"
  # All but six tests whose time goes to CBC, to evaluating shipped policies and to training
  # (over 530 s of the stage's CPU under ASan): the release stage runs them, and their code paths
  # run here in smaller tests (the ILP and sweep on small graphs, eval, its policies and the split
  # protocol, PPO on tiny envs).
  ctest --preset native-debug -j "$JOBS" -E \
    '^(Cli\.(ShippedPoliciesReproduceTheirResults|TensorplaceSweepOrdersTheOptimizersAtEveryRatio|TensorplaceIlpReportsTheOptimumAndItsBaselines|TheHeldOutProtocolReproducesItsRecordedRun|TheShippedImitationPolicyBeatsTheSearchesOnRandomSizes)|InlineCli\.PpoTrainsOnTheEnvAndBeatsClangsOzDecisionsInModelMode)$'
  # clang-tidy (both cores) runs beside the stages that use about one (Node, Chromium, the fuzzers);
  # its findings are printed when it has finished, in its own stage.
  # In a process group of its own (setsid), so that a failing stage stops every clang-tidy it
  # started, not only its parent.
  JOBS="$JOBS" setsid bash -c '
    start=$SECONDS
    tests/lint/tidy.sh "$JOBS"
    echo "   [clang-tidy took $((SECONDS - start)) s, beside the Node, browser and fuzzing stages]"
  ' > build/tidy.log 2>&1 &
  TIDY_PID=$!
  # Under `set -e` a failing command inside an EXIT trap becomes the script's exit status: the
  # group is gone once clang-tidy has finished, so every command here must succeed.
  trap 'kill -- -"$TIDY_PID" 2>/dev/null || true' EXIT
  stage "tests, WebAssembly package under Node (API, errors, native/wasm parity, types, the test family)"
  node --test wasm/test/
  stage "tests, docs: every sh, js and python example of the README and docs/ runs as written; a family added by adding-a-family.md's edits builds (a scratch copy, -O0)"
  node --test tests/docs/
  stage "tests, browser playground and player in Chromium (screenshots in build/web-artifacts)"
  build_web
  node web/build.mjs --package build/wasm/test-package --out build/web-test
  node --test web/test/
  stage "fuzzing: every input path for ${SYSGYM_FUZZ_SECONDS:-10} s, then the regression inputs"
  tests/fuzz/run.sh "${SYSGYM_FUZZ_SECONDS:-10}"
  stage "static checks: clang-tidy over core/ and native/ (warnings are errors; waiting for it)"
  local tidy_status=0
  wait "$TIDY_PID" || tidy_status=$?
  trap - EXIT
  cat build/tidy.log
  [ "$tidy_status" -eq 0 ] || { echo "clang-tidy failed (exit $tidy_status)"; exit 1; }
  stage_done
  echo "tests done in $((SECONDS / 60)) min $((SECONDS % 60)) s"
}

web() {
  setup
  build_web
  node web/serve.mjs "$@"
}

bench() {
  setup
  build_preset native-release
  build/native-release/tests/sysgym_bench "$@"
  build/native-release/tests/sysgym_env_bench "$@"
  build/native-release/tests/sysgym_agents_bench "$@"
  build/native-release/tests/sysgym_marker_bench "$@"
  build/native-release/tests/sysgym_tensorplace_bench "$@"
  build/native-release/tests/sysgym_looptune_bench "$@"
  build/native-release/tests/sysgym_profiling_bench "$@"
  PYTHONPATH=build/native-release/python /usr/bin/python3 python/bench/bench.py
  build_preset wasm
  node wasm/bench/bench.mjs
  node wasm/bench/train_bench.mjs
  node wasm/bench/profile_bench.mjs 3 --scale 0.3
  node wasm/bench/looptune_bench.mjs
  node wasm/bench/memory.mjs
}

case "${1:-}" in
  setup) setup ;;
  build) setup && build_preset native-release ;;
  demo) demo ;;
  web) shift && web "$@" ;;
  fuzz) shift && setup && tests/fuzz/run.sh "$@" ;;
  test) run_tests ;;
  bench) shift && bench "$@" ;;
  catalogue)
    build_preset native-release
    SYSGYM_UPDATE_CATALOGUE=1 build/native-release/tests/sysgym_tests --gtest_filter='BadInputs.*:ConfigTables.*'
    SYSGYM_UPDATE_CATALOGUE=1 PYTHONPATH=build/native-release/python-test PYTHONDONTWRITEBYTECODE=1 \
      /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/python/test_bad_input_catalogue.py
    node tests/docs/cli_reference.mjs --write build/native-release/sysgym
    node data/policies/held_out.mjs render
    # The README's picture, as the last browser test run took it (web/test/first_contact.test.mjs).
    if [ -f build/web-artifacts/readme-playground.png ]; then
      cp build/web-artifacts/readme-playground.png docs/images/playground.png
      echo "catalogue: docs/images/playground.png from the last browser test run"
    fi
    ;;
  *)
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
