#!/usr/bin/env bash
# The template-fitness check (docs/template.md, "Measured"): for each site
# family (a folder of NAME.html + NAME.txt), tune with --fitness template on
# all its pages with their gold hidden (the .html files linked into a
# scratch folder, no .txt), then score best.json against the real gold on
# the test half: the even-numbered pages sorted by name (2nd, 4th, ...).
# Prints one line per family and seed, then the description's defaults and
# the extractor's built-in defaults on the same pages.
#
# Usage: scripts/template-check.sh [-- EVOLVE-OPTIONS...] FAMILY-DIR...
#   e.g. scripts/template-check.sh ../shared/corpora/portals/*
# Environment: CETUNE (build/cetune), PARAMS (params/score.json), SEEDS ("1 2 3"),
# THREADS (2), OUT (a new temporary folder, kept: the runs and test samples).
set -euo pipefail
cd "$(dirname "$0")/.."
cetune=${CETUNE:-build/cetune}
params=${PARAMS:-params/score.json}
seeds=${SEEDS:-1 2 3}
threads=${THREADS:-2}
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/template-check.XXXXXX")}
mkdir -p "$out"
extra=()
if [ "${1:-}" = -- ]; then
  shift
  while [ $# -gt 0 ] && [ ! -d "$1" ]; do extra+=("$1"); shift; done
fi
[ $# -gt 0 ] || { echo "usage: $0 [-- EVOLVE-OPTIONS...] FAMILY-DIR..." >&2; exit 2; }
f1() { awk -F, '$1 == "macro" { printf "%.4f", $5 }'; }
# The description's defaults as a configuration.
scripts/params-defaults.py "$params" > "$out/defaults.json"
ex=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["extractor"])' "$params")
echo "output in $out" >&2
for dir in "$@"; do
  fam=$(basename "$dir")
  mkdir -p "$out/crawl/$fam"
  ln -sf "$(cd "$dir" && pwd)"/*.html "$out/crawl/$fam/"
  (cd "$dir" && ls *.html | LC_ALL=C sort | awk 'NR % 2 == 0' | sed "s/\.html\$//; s|^|$fam/|") \
    > "$out/test-$fam.txt"
  for s in $seeds; do
    run=$out/run-$fam-$s
    nice "$cetune" evolve -p "$params" -d "$out/crawl/$fam" --fitness template --seed "$s" \
      --threads "$threads" -o "$run" "${extra[@]}" > /dev/null 2> "$out/evolve-$fam-$s.log"
    echo "$fam seed $s: $("$cetune" evaluate -c "$run/best.json" -d "$dir" \
      -s "$out/test-$fam.txt" --format csv 2>/dev/null | f1)"
  done
  echo "$fam description defaults: $("$cetune" evaluate -c "$out/defaults.json" -d "$dir" \
    -s "$out/test-$fam.txt" --format csv 2>/dev/null | f1)"
  echo "$fam $ex built-in defaults: $("$cetune" evaluate -x "$ex" -d "$dir" \
    -s "$out/test-$fam.txt" --format csv 2>/dev/null | f1)"
done
