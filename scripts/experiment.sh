#!/usr/bin/env bash
# Reproduces the experiment of docs/experiment.md (Gottron 2008, section 5.4, on the
# dev corpora): tunes lqf, accb, tccb, sw, density, the block scorer and the
# pipeline on one fixed sample of 120 documents, then verifies the best four
# of each and the defaults on the four full dev corpora (table 3 style), and
# on the 370 documents outside the sample; finally switches off each part of
# the best pipeline in turn (ablation).  Everything goes to OUT (git-ignored
# under runs/).
#
# Usage: scripts/experiment.sh [CETUNE] [CORPORA] [OUT]
#   CETUNE   the built binary (build/cetune)
#   CORPORA  the folder holding portals, cleaneval-dev, scrapinghub, big5
#            (../shared/corpora)
#   OUT      where runs, tables and configurations go (runs/experiment)
# Paths are relative to the repository root.  SEED (2008), POP (20),
# GENERATIONS (40), PATIENCE (8) and THREADS (all cores) may be set in the
# environment; the pipeline, whose search space is far larger (69 genes, most
# of them conditional), gets PIPE_POP (40), PIPE_GENERATIONS (80) and
# PIPE_PATIENCE (15); CHOOSE (search: best.json is the best training
# fitness, the rule these tables were measured with; cv is evolve's default,
# docs/choice.md).  About five minutes on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
cetune=${1:-build/cetune}
corpora=${2:-../shared/corpora}
out=${3:-runs/experiment}
seed=${SEED:-2008}
pop=${POP:-20}
generations=${GENERATIONS:-40}
patience=${PATIENCE:-8}
threads=()
[ -n "${THREADS:-}" ] && threads=(--threads "$THREADS")
pipe_pop=${PIPE_POP:-40}
pipe_generations=${PIPE_GENERATIONS:-80}
pipe_patience=${PIPE_PATIENCE:-15}
holdout=(--choose "${CHOOSE:-search}")
extractors=(lqf accb tccb sw density score pipeline)

if [ ! -x "$cetune" ]; then
  echo "experiment.sh: $cetune not found; build first: cmake -S . -B build && cmake --build build -j" >&2
  exit 2
fi
dirs=()
for c in portals cleaneval-dev scrapinghub big5; do
  if [ ! -d "$corpora/$c" ]; then
    echo "experiment.sh: $corpora/$c not found; give the corpora folder as the second argument" >&2
    exit 2
  fi
  dirs+=(-d "$corpora/$c")
done
validate=()
for ((i = 1; i < ${#dirs[@]}; i += 2)); do validate+=(--validate "${dirs[i]}"); done
mkdir -p "$out/configs"
log() { printf '\n== %s\n' "$*" >&2; }

log "the training sample: 120 documents, seed $seed, in proportion to the packages"
"$cetune" sample "${dirs[@]}" -n 120 --seed "$seed" -o "$out/sample.txt" --force
# Every document, to name the 370 outside the sample.
"$cetune" sample "${dirs[@]}" -n 1000000 --seed "$seed" -o "$out/all.txt" --force 2>/dev/null
grep -v '^#' "$out/sample.txt" | grep -vxF -f - "$out/all.txt" | grep -v '^#' >"$out/heldout.txt"
echo "$(wc -l <"$out/heldout.txt") documents outside the sample: $out/heldout.txt" >&2

configs=()       # evaluate's arguments: the best four of each, then the defaults
for x in "${extractors[@]}"; do
  log "evolving $x"
  budget=(--pop "$pop" --generations "$generations" --patience "$patience")
  [ "$x" = pipeline ] && budget=(--pop "$pipe_pop" --generations "$pipe_generations" --patience "$pipe_patience")
  "$cetune" evolve -p "params/$x.json" "${dirs[@]}" -s "$out/sample.txt" "${budget[@]}" \
    --seed "$seed" --top 4 "${holdout[@]}" \
    "${validate[@]}" "${threads[@]}" -o "$out/$x" --force | tee "$out/$x.txt"
  "$cetune" report "$out/$x" >/dev/null
  # top.json holds one configuration per line: each becomes a file (for
  # extract -c) and -x/-P options (so table rows show the values, as in Gottron 2008).
  k=0
  while IFS= read -r line; do
    k=$((k + 1))
    line=${line#[}
    line=${line# }
    line=${line%]}
    line=${line%,}
    printf '%s\n' "$line" >"$out/configs/$x-$k.json"
    configs+=(-x "$x")
    params=$(printf '%s\n' "$line" | sed 's/.*"params": {\([^}]*\)}.*/\1/')
    while IFS= read -r kv; do
      [ -n "$kv" ] && configs+=(-P "$(printf '%s' "$kv" | sed 's/^ *"\([^"]*\)": *"\{0,1\}\([^"]*\)"\{0,1\} *$/\1=\2/')")
    done < <(printf '%s\n' "$params" | tr ',' '\n')
  done <"$out/$x/top.json"
  configs+=(-x "$x")
done

log "summary: training fitness against the mean F1 on all documents and outside the sample"
# validation.csv scores the 490 documents, the 120 of the sample among them
# with exactly their training scores, so the mean F1 of the other 370 is
# (490 x valid_f1 - 120 x train_fitness) / 370.
n_all=$(grep -vc '^#' "$out/all.txt")
n_train=$(grep -vc '^#' "$out/sample.txt")
{
  printf '%-8s %-8s %-24s %9s %9s %9s %9s %9s\n' extractor rank parameters training \
    "all $n_all" "other $((n_all - n_train))" "macro $n_all" gap
  for x in "${extractors[@]}"; do
    awk -F, -v x="$x" -v N="$n_all" -v n="$n_train" '
      NR == 1 { for (i = 1; i <= NF; i++) if ($i == "train_fitness") first = i; next }
      { p = $2; for (i = 3; i < first; i++) p = p ";" $i
        other = $first == "" ? "-" : sprintf("%.4f", (N * $(first + 1) - n * $first) / (N - n))
        printf "%-8s %-8s %-24s %9.4f %9.4f %9s %9.4f %+9.4f\n", x, $1, p, $first,
               $(first + 1), other, $(first + 2), $first - $(first + 1) }' "$out/$x/validation.csv"
  done
} | tee "$out/summary.txt"

log "table 3: the best four of each and the defaults on the four dev corpora (490 documents)"
"$cetune" evaluate "${configs[@]}" "${dirs[@]}" "${threads[@]}" | tee "$out/table3.txt"
"$cetune" evaluate "${configs[@]}" "${dirs[@]}" "${threads[@]}" --show p,r,f1 --format csv \
  >"$out/table3.csv" 2>/dev/null

log "the same on the 370 documents outside the training sample"
"$cetune" evaluate "${configs[@]}" "${dirs[@]}" -s "$out/heldout.txt" "${threads[@]}" |
  tee "$out/table3-heldout.txt"
"$cetune" evaluate "${configs[@]}" "${dirs[@]}" -s "$out/heldout.txt" "${threads[@]}" \
  --show p,r,f1 --format csv >"$out/table3-heldout.csv" 2>/dev/null

log "ablation: the best pipeline with each of its parts switched off in turn"
# Each row changes one setting of configs/pipeline-1.json; a part the best
# configuration does not use is left out.
best="$out/configs/pipeline-1.json"
ablate=(-c "$best")
labels=("best")
has() { grep -q "\"$1\": $2" "$best"; }
for k in 2 3; do
  if ! has "s$k" '"none"'; then ablate+=(-c "$best" -P "s$k=none"); labels+=("without stage $k (s$k=none)"); fi
done
if ! has s2 '"none"' || ! has s3 '"none"'; then
  ablate+=(-c "$best" -P s2=none -P s3=none); labels+=("stage 1 alone (s2=s3=none)")
fi
has clean true && { ablate+=(-c "$best" -P clean=false); labels+=("without cleaning (clean=false)"); }
has post.region '"none"' || { ablate+=(-c "$best" -P post.region=none); labels+=("without the region (post.region=none)"); }
has post.headings true && { ablate+=(-c "$best" -P post.headings=false); labels+=("without headings (post.headings=false)"); }
for q in fill_gap island min_words; do
  has "post.$q" 0 || { ablate+=(-c "$best" -P "post.$q=0"); labels+=("without post.$q (post.$q=0)"); }
done
ablate+=(-c "$best" -P post.fill_gap=0 -P post.island=0 -P post.region=none -P post.headings=false -P post.min_words=0)
labels+=("no post-processing at all")
printf '%-42s %9s %9s %9s\n' "configuration" "macro $n_all" "macro $((n_all - n_train))" \
  "training" >"$out/ablation.txt"
# One evaluation per row: labels stay readable whatever evaluate prints.
i=0
args=()
for a in "${ablate[@]}" END; do
  if { [ "$a" = -c ] || [ "$a" = END ]; } && [ ${#args[@]} -gt 0 ]; then
    m490=$("$cetune" evaluate "${args[@]}" "${dirs[@]}" "${threads[@]}" --format csv 2>/dev/null | awk -F, '$1 == "macro" { print $5 }')
    m370=$("$cetune" evaluate "${args[@]}" "${dirs[@]}" -s "$out/heldout.txt" "${threads[@]}" --format csv 2>/dev/null | awk -F, '$1 == "macro" { print $5 }')
    trn=$("$cetune" evaluate "${args[@]}" "${dirs[@]}" -s "$out/sample.txt" "${threads[@]}" --per-doc --format csv 2>/dev/null | awk -F, 'NR > 1 { s += $NF; n++ } END { if (n) printf "%.4f", s / n }')
    printf '%-42s %9.4f %9.4f %9s\n' "${labels[i]}" "$m490" "$m370" "$trn" >>"$out/ablation.txt"
    i=$((i + 1))
    args=()
  fi
  [ "$a" != END ] && args+=("$a")
done
cat "$out/ablation.txt"

log "done: $out/summary.txt, $out/table3.txt, $out/table3-heldout.txt, $out/EXTRACTOR/report.md, $out/configs/, $out/ablation.txt"
