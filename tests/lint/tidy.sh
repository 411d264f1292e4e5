#!/usr/bin/env bash
# clang-tidy over core/ and native/ with the committed .clang-tidy (warnings are errors).
#   tests/lint/tidy.sh [JOBS] [shallow|deep]   (the clang analyzer's mode; shallow by default)
#
# Two passes, because a file costs clang-tidy mostly in the headers it includes: the AST
# matchers walk every declaration of nlohmann_json, CLI11 and LEMON again for each file, which
# made one pass over 134 files take about 37 CPU-minutes.
#  1. The matcher checks run over CMake's unity sources (build/lint: 16 of our files per
#     translation unit), so each batch walks the headers once. Findings still name our files:
#     the .clang-tidy header filter covers core/ and native/.
#  2. The clang analyzer only analyses functions of the main file, so it keeps one run per file
#     (build/lint-files: one compile command per source, as the release build is a unity build).
#     It runs in its shallow mode (fewer paths and less inlining into callees, as editors run it
#     while typing): the deep mode took 739 s of
#     both cores here, the shallow one 360 s; `tests/lint/tidy.sh 2 deep` runs the deep one.
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs="${1:-$(nproc 2>/dev/null || echo 2)}"
analyzer_mode="${2:-shallow}"
case "$analyzer_mode" in
  shallow | deep) ;;
  *) echo "tidy.sh: the analyzer mode is shallow or deep, not '$analyzer_mode'" >&2; exit 2 ;;
esac

# Only findings are shown: the per-file command lines and counts of suppressed (system-header)
# warnings are dropped; sed keeps the exit status of run-clang-tidy under pipefail.
tidy() {
  run-clang-tidy-14 -j "$jobs" -quiet "$@" 2>&1 |
    sed -E '/^[0-9]+ warnings? (and [0-9]+ errors? )?generated\.$/d; /^clang-tidy-14 /d;
            /^Suppressed [0-9]+ warnings/d; /^Use -header-filter/d'
}

cmake --preset lint-files >/dev/null
cmake --preset lint >/dev/null

# The analyzer checks that .clang-tidy enables, as one list (so that file stays the only place
# where checks are chosen).
analyzer_checks=$(clang-tidy-14 --list-checks -p build/lint-files core/base/error.cpp |
  sed -nE 's/^ +(clang-analyzer-[^ ]+)$/\1/p' | paste -sd, -)
[ -n "$analyzer_checks" ] || { echo "tidy.sh: .clang-tidy enables no clang-analyzer check"; exit 1; }

# Both passes run, so that one run shows every finding. A unity source includes .cpp files by
# design.
status=0
tidy -p build/lint -checks='-clang-analyzer-*,-bugprone-suspicious-include' \
  "$PWD/build/lint/(core|native)/.*/Unity/unity_[0-9]+_cxx\.cxx$|$PWD/(core|native)/.*\.cpp$" ||
  status=1
tidy -p build/lint-files -checks="-*,$analyzer_checks" -extra-arg=-Xclang \
  -extra-arg=-analyzer-config -extra-arg=-Xclang -extra-arg="mode=$analyzer_mode" \
  "$PWD/(core|native)/.*\.cpp$" ||
  status=1
[ "$status" -eq 0 ] || exit 1
echo "clang-tidy: core/ and native/ are clean"
