#!/usr/bin/env bash
# Regenerates the shipped synthetic pair from the sysgym tool (deterministic: same bytes).
# Usage: data/synth/regenerate.sh [path/to/sysgym]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
sysgym="${1:-$here/../../build/native-release/sysgym}"
"$sysgym" synth --pattern phased --samples 30000 --seed 7 --footprint 256MiB \
  --mixed 0x7f3a00000000:0x7f3a01000000 -o "$here/phased"
