#!/usr/bin/env bash
# Builds the libFuzzer targets (in the native-debug preset's tree) and runs each for SECONDS (default 20) on its
# seed corpus, then replays every committed regression input once.
#   tests/fuzz/run.sh [SECONDS] [TARGET...]      targets: csv perf_script binary_trace ...
# The working corpus grows in build/native-debug/fuzz/corpus/TARGET (the committed seeds stay
# small); a crash, leak, sanitizer report or hang (over 10 s on one input) is written to
# build/native-debug/fuzz/findings/TARGET/ and fails the run. Prints per target: runs, executions per second, coverage (edges), corpus.
set -euo pipefail
cd "$(dirname "$0")/../.."

SECONDS_PER_TARGET="${1:-20}"
shift || true
ALL=(csv perf_script binary_trace prepared_pair lackey env_config policy_file episode env_step numbers
     marker tensorplace_graph tensorplace_plan looptune_problem inline_program training_state)
[ $# -gt 0 ] && TARGETS=("$@") || TARGETS=("${ALL[@]}")

dict_of() {
  case "$1" in
    csv) echo tests/fuzz/dict/csv.dict ;;
    perf_script) echo tests/fuzz/dict/perf_script.dict ;;
    lackey) echo tests/fuzz/dict/lackey.dict ;;
    env_config | policy_file | episode | tensorplace_graph | tensorplace_plan | looptune_problem | \
      inline_program) echo tests/fuzz/dict/json.dict ;;
    binary_trace) echo tests/fuzz/dict/csv.dict ;;
    marker) echo tests/fuzz/dict/marker.dict ;;
    numbers) echo tests/fuzz/dict/numbers.dict ;;
    *) echo "" ;;
  esac
}

cmake --preset native-debug >/dev/null
targets=()
for t in "${TARGETS[@]}"; do
  [[ " ${ALL[*]} " == *" $t "* ]] || { echo "run.sh: unknown target '$t' (targets: ${ALL[*]})" >&2; exit 2; }
  targets+=("${t}_fuzz")
done
cmake --build --preset native-debug -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}" >/dev/null

failed=()
printf '%-14s %12s %10s %8s %8s\n' target runs "exec/s" edges corpus
for t in "${TARGETS[@]}"; do
  exe="build/native-debug/tests/fuzz/${t}_fuzz"
  work="build/native-debug/fuzz/corpus/$t"
  findings="build/native-debug/fuzz/findings/$t"
  mkdir -p "$work" "$findings"
  cp -n tests/fuzz/corpus/"$t"/* "$work"/ 2>/dev/null || true
  dict="$(dict_of "$t")"
  log="build/native-debug/fuzz/$t.log"
  args=(-max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$findings/" "$work")
  [ -n "$dict" ] && args=(-dict="$dict" "${args[@]}")
  if ! "$exe" "${args[@]}" >"$log" 2>&1; then
    failed+=("$t")
    echo "== $t: FINDING (see $log and $findings/)" >&2
    grep -E "ERROR|SUMMARY|==[0-9]+==" "$log" | head -5 >&2 || true
  fi
  runs="$(grep -oP 'stat::number_of_executed_units:\s+\K[0-9]+' "$log" || echo '?')"
  speed="$(grep -oP 'stat::average_exec_per_sec:\s+\K[0-9]+' "$log" || echo '?')"
  edges="$(grep -oP 'cov: \K[0-9]+' "$log" | tail -1 || echo '?')"
  corpus="$(find "$work" -type f | wc -l)"
  printf '%-14s %12s %10s %8s %8s\n' "$t" "$runs" "$speed" "${edges:-?}" "$corpus"
  # Regression inputs: every crash found so far, minimised, must now run clean.
  if compgen -G "tests/fuzz/regressions/$t/*" >/dev/null; then
    "$exe" tests/fuzz/regressions/"$t"/* >"build/native-debug/fuzz/$t.regressions.log" 2>&1 || {
      failed+=("$t (regression)")
      echo "== $t: a regression input fails again (build/native-debug/fuzz/$t.regressions.log)" >&2
    }
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: no findings (${#TARGETS[@]} targets x ${SECONDS_PER_TARGET} s)"
