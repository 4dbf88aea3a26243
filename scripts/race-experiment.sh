#!/usr/bin/env bash
# The racing experiment of docs/racing.md: the same evolve runs with and
# without --race, one after the other, on
#  1. all 490 dev documents (--pop 30 --generations 30, seeds 11 12 13):
#     evaluations, document evaluations, wall time, best training fitness;
#  2. the 120-document sample of docs/experiment.md (seed 2008) with the
#     same GA settings and seed 11: also the mean F1 of the best on the 370
#     documents outside the sample.
# Prints two markdown tables (stdout) and keeps every run under OUT.
#
# Usage: scripts/race-experiment.sh [CETUNE] [CORPORA] [OUT]
#   CETUNE   the built binary (build/cetune)
#   CORPORA  the folder holding portals, big5, cleaneval-dev, scrapinghub
#            (../shared/corpora)
#   OUT      where the runs go (runs/race-experiment)
# EXTRACTORS ("accb density"), SEEDS ("11 12 13") and THREADS (all cores)
# may be set in the environment, and RACE (extra racing options, e.g.
# "--race-alpha 0.1").  About ten minutes on two idle cores.
set -euo pipefail
cd "$(dirname "$0")/.."
cetune=${1:-build/cetune}
corpora=${2:-../shared/corpora}
out=${3:-runs/race-experiment}
read -r -a extractors <<<"${EXTRACTORS:-accb density}"
read -r -a seeds <<<"${SEEDS:-11 12 13}"
read -r -a race <<<"${RACE:-}"
threads=()
[ -n "${THREADS:-}" ] && threads=(--threads "$THREADS")
if [ ! -x "$cetune" ]; then
  echo "race-experiment.sh: $cetune not found; build first" >&2
  exit 2
fi
dirs=()
for c in portals big5 cleaneval-dev scrapinghub; do
  if [ ! -d "$corpora/$c" ]; then
    echo "race-experiment.sh: $corpora/$c not found; give the corpora folder as the second argument" >&2
    exit 2
  fi
  dirs+=(-d "$corpora/$c")
done
mkdir -p "$out"

# run NAME ARGS...: one evolve into $out/NAME; prints "generations evaluations
# doc_evaluations seconds best_fitness".
run() {
  local name=$1
  shift
  local t0 t1
  t0=$(date +%s.%N)
  "$cetune" evolve "$@" "${threads[@]}" -o "$out/$name" --force >"$out/$name.txt" 2>"$out/$name.err"
  t1=$(date +%s.%N)
  local last gens fit
  last=$(tail -1 "$out/$name/generations.csv")
  gens=$(($(wc -l <"$out/$name/generations.csv") - 1))
  fit=$(sed -n 's/.*"fitness": \([0-9.e-]*\).*/\1/p' "$out/$name/best.json")
  echo "$gens $(echo "$last" | cut -d, -f2) $(echo "$last" | cut -d, -f9) $(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }') $fit"
}

echo "| extractor | seed | racing | generations | evaluations | document evaluations | fewer | wall time (s) | best fitness | difference |"
echo "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for x in "${extractors[@]}"; do
  for s in "${seeds[@]}"; do
    common=(-p "params/$x.json" "${dirs[@]}" --pop 30 --generations 30 --seed "$s" --choose search)
    read -r g0 e0 d0 t0 f0 <<<"$(run "$x-$s-full" "${common[@]}" --no-race)"
    read -r g1 e1 d1 t1 f1 <<<"$(run "$x-$s-race" "${common[@]}" --race "${race[@]}")"
    printf '| %s | %s | no | %s | %s | %s | | %.1f | %.4f | |\n' "$x" "$s" "$g0" "$e0" "$d0" "$t0" "$f0"
    printf '| %s | %s | yes | %s | %s | %s | %.2fx | %.1f | %.4f | %+.4f |\n' "$x" "$s" "$g1" "$e1" \
      "$d1" "$(awk -v a="$d0" -v b="$d1" 'BEGIN { print a / b }')" "$t1" "$f1" "$(awk -v a="$f0" -v b="$f1" 'BEGIN { print b - a }')"
  done
done

# The sample of docs/experiment.md and the documents outside it.
"$cetune" sample "${dirs[@]}" -n 120 --seed 2008 -o "$out/sample.txt" --force >/dev/null 2>&1
"$cetune" sample "${dirs[@]}" -n 1000000 --seed 2008 -o "$out/all.txt" --force >/dev/null 2>&1
grep -v '^#' "$out/sample.txt" | grep -vxF -f - "$out/all.txt" | grep -v '^#' >"$out/heldout.txt"
# heldout NAME: mean F1 over the documents of heldout.txt of NAME's best.json.
heldout() {
  "$cetune" evaluate -c "$out/$1/best.json" "${dirs[@]}" -s "$out/heldout.txt" --per-doc \
    --format csv "${threads[@]}" 2>/dev/null | awk -F, 'NR > 1 { s += $8; n++ } END { printf "%.4f", s / n }'
}
echo
echo "| extractor | racing | generations | document evaluations | fewer | best fitness (120 training documents) | mean F1 on the 370 others |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
for x in "${extractors[@]}"; do
  common=(-p "params/$x.json" "${dirs[@]}" -s "$out/sample.txt" --pop 30 --generations 30 --seed 11 --choose search)
  read -r g0 e0 d0 t0 f0 <<<"$(run "$x-sample-full" "${common[@]}" --no-race)"
  read -r g1 e1 d1 t1 f1 <<<"$(run "$x-sample-race" "${common[@]}" --race "${race[@]}")"
  printf '| %s | no | %s | %s | | %.4f | %s |\n' "$x" "$g0" "$d0" "$f0" "$(heldout "$x-sample-full")"
  printf '| %s | yes | %s | %s | %.2fx | %.4f | %s |\n' "$x" "$g1" "$d1" "$(awk -v a="$d0" -v b="$d1" 'BEGIN { print a / b }')" \
    "$f1" "$(heldout "$x-sample-race")"
done
