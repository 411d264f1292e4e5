#!/usr/bin/env bash
# clang-tidy over core/ and native/ with the committed .clang-tidy (warnings are errors), using
# the compile commands of the native-release build.
#   tests/lint/tidy.sh [JOBS]
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake --preset native-release >/dev/null
# Only findings are shown: the per-file command lines and counts of suppressed (system-header)
# warnings are dropped; sed keeps the exit status of run-clang-tidy under pipefail.
run-clang-tidy-14 -p build/native-release -j "${1:-$(nproc 2>/dev/null || echo 2)}" -quiet \
  "$PWD/(core|native)/.*\.cpp$" 2>&1 |
  sed -E '/^[0-9]+ warnings? generated\.$/d; /^clang-tidy-14 /d; /^Suppressed [0-9]+ warnings/d; /^Use -header-filter/d'
echo "clang-tidy: core/ and native/ are clean"
