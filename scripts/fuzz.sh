#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time (default 60 s each) with
# AddressSanitizer and UndefinedBehaviorSanitizer.  Crashing inputs are kept
# in fuzz/regressions/TARGET/, where the normal test suite replays them.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
# Each target starts from the random seed FUZZ_SEED (1) and stops after
# SECONDS or after its number of inputs below, whichever comes first, so a
# run explores the same inputs on every machine (CI included) up to that
# bound; FUZZ_SEED=0 lets libFuzzer pick a new seed for open-ended fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(page gold config params sample checkpoint meta warc)

# -Wno-pass-failed: the sanitizers' instrumentation keeps clang from
# vectorising the `omp simd` loops of ccb.c, which it would report as warnings.
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCETUNE_FUZZ=ON -DCETUNE_SANITIZE=ON \
  -DCMAKE_C_FLAGS=-Wno-pass-failed >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")

# Inputs per target: about what one core runs in 60 s on the development VM,
# scaled to SECONDS so that the input count, not the clock, ends a run.
declare -A runs=([page]=8000 [gold]=1500000 [config]=4000000 [params]=2000000 [sample]=6000000
                 [checkpoint]=200000 [meta]=200000 [warc]=400000)
for t in "${!runs[@]}"; do runs[$t]=$(( runs[$t] * seconds / 60 )); done
status=0
for t in "${targets[@]}"; do
  work=$(mktemp -d /tmp/cetune-fuzz-$t.XXXXXX)
  cp -r fuzz/corpus/$t/. "$work/"
  mkdir -p fuzz/regressions/$t
  echo "== fuzz_$t for ${seconds}s =="
  if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      build-fuzz/fuzz/fuzz_$t -max_total_time="$seconds" -seed="${FUZZ_SEED:-1}" \
        -runs="${runs[$t]:--1}" -max_len=262144 -rss_limit_mb=4096 \
        -timeout=30 -print_final_stats=1 -artifact_prefix="fuzz/regressions/$t/" "$work" \
        >"$work.log" 2>&1; then
    echo "fuzz_$t FAILED; input kept in fuzz/regressions/$t/:"
    grep -E "ERROR|SUMMARY|Test unit written" "$work.log" | head -20
    status=1
  else
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work.log" | tr '\n' ' '
    echo
  fi
  rm -rf "$work" "$work.log"
done
exit $status
