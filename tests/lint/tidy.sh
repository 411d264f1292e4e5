#!/usr/bin/env bash
# clang-tidy over core/ and native/ with the committed .clang-tidy (warnings are errors), using
# the compile commands of the native-release build.
#   tests/lint/tidy.sh [JOBS]
set -euo pipefail
cd "$(dirname "$0")/../.."
cmake --preset native-release >/dev/null
run-clang-tidy-14 -p build/native-release -j "${1:-$(nproc 2>/dev/null || echo 2)}" -quiet \
  "$PWD/(core|native)/.*\.cpp$"
