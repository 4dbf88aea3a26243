#!/usr/bin/env bash
# How configs/article.json, the shipped configuration, is tuned: on all five
# development corpora with every corpus weighing the same, from the current
# configuration, with evolve's cross-validated final choice (docs/choice.md),
# which keeps the start unless the search's best gains on held-out pages
# beyond doubt.
#
# The corpora hold 58 to 621 pages, so the mean F1 over all their pages would
# tune for the largest; instead the search trains on the same number of
# pages of each corpus (`cetune sample -n PER_CORPUS --seed SEED`, in
# proportion to its packages).  Both the result and the start are then scored
# on every page of every corpus (training figures: the leave-one-corpus-out
# figures of docs/results.md are the ones that say how it does on new sites).
# Nothing is overwritten: the script prints the command that would install
# OUT/run/best.json as configs/article.json. --no-site: the shipped configuration is for
# every site, so it carries no site rules (docs/site.md).
#
# Usage: scripts/tune-shipped.sh [CETUNE] [CORPORA] [OUT]
#   CETUNE   the built binary (build/cetune)
#   CORPORA  the folder holding the corpora (../shared/corpora)
#   OUT      runs/shipped
# Environment: PARAMS (params/score.json), START (configs/article.json),
# ALL (portals big5 cleaneval-dev scrapinghub l3s-gn1), PER_CORPUS (30),
# SEED (1), EVALS (400: the search's evaluations), FOLD_EVALS (200: each
# cross-validation fold's), THREADS (2).
set -euo pipefail
cd "$(dirname "$0")/.."
cetune=${1:-build/cetune}
corpora=${2:-../shared/corpora}
out=${3:-runs/shipped}
params=${PARAMS:-params/score.json}
start=${START:-configs/article.json}
read -r -a all <<<"${ALL:-portals big5 cleaneval-dev scrapinghub l3s-gn1}"
per=${PER_CORPUS:-30} seed=${SEED:-1} threads=${THREADS:-2}
[ -x "$cetune" ] || { echo "tune-shipped.sh: $cetune not found; build first" >&2; exit 2; }
dirs=()
for c in "${all[@]}"; do
  [ -d "$corpora/$c" ] || { echo "tune-shipped.sh: $corpora/$c not found" >&2; exit 77; }
  dirs+=(-d "$corpora/$c")
done
mkdir -p "$out"
: >"$out/sample.txt"
for c in "${all[@]}"; do
  "$cetune" sample -d "$corpora/$c" -n "$per" --seed "$seed" -o - 2>/dev/null >>"$out/sample.txt"
done
echo "== tuning on $(wc -l <"$out/sample.txt") pages, $per per corpus" >&2
nice -n 10 "$cetune" evolve -p "$params" "${dirs[@]}" -s "$out/sample.txt" --seed-config "$start" \
  --strategy cmaes --max-evals "${EVALS:-400}" --fold-evals "${FOLD_EVALS:-200}" --choose cv \
  --no-site --seed "$seed" --threads "$threads" -o "$out/run" --force | tee "$out/evolve.txt"
nice -n 10 "$cetune" evaluate -c "$out/run/best.json" -c "$start" "${dirs[@]}" \
  --threads "$threads" --show f1 | tee "$out/evaluate.txt"
echo "to ship it: cp $out/run/best.json $start  (and record the run in docs/results.md)"
