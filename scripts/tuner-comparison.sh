#!/usr/bin/env bash
# The tuner comparison of docs/experiment.md: every strategy that
# `cetune evolve --help` lists, Optuna (TPE multivariate, CMA-ES, random
# search) and irace, on the same problems, budgets, seeds, training
# documents and fitness (mean word F1 over the training documents):
#   score     params/score.json without its "seeds" (the defaults are then
#             the one seed, for every tuner), 800 evaluations, the
#             120-document sample of scripts/experiment.sh (seed 2008);
#   pipeline  params/pipeline.json with its seeds, 1600 evaluations, same sample;
#   density   params/density.json (int, float and enum genes), 400 evaluations,
#             same sample;
#   accb-FAMILY  params/accb.json on one family (package) of the portals
#             corpus: half its pages (seed 2008) train, the other half are
#             its dev documents; 200 evaluations.
# The peers drive `cetune evaluate` from outside (scripts/tuner_peer.py,
# scripts/tuner-irace.R): batches of BATCH configurations per call, a
# configuration evaluated before costs nothing (as in cetune's archive).
# irace races the training documents as instances with the same number of
# page evaluations (evaluations x training documents).
# For each tuner and problem: the median and spread over the seeds of the
# best training fitness, the training fitness of the configuration the tuner
# chose, and the macro F1 of that configuration on the dev documents (the
# 370 outside the sample; the other half of the family); a gnuplot
# convergence plot per problem (median best so far against evaluations,
# one line per tuner).
#
# Usage: scripts/tuner-comparison.sh [--seeds LIST] [--problems LIST] [--tuners LIST]
#                                    [CETUNE] [CORPORA] [OUT]
#   CETUNE   the built binary (build/cetune)
#   CORPORA  the folder holding portals, cleaneval-dev, scrapinghub, big5
#            (../shared/corpora)
#   OUT      runs, tables.md and the plots (runs/tuner-comparison)
#   --seeds, --problems, --tuners: space- or comma-separated, as SEEDS,
#            PROBLEMS and TUNERS below (the options win)
# Environment:
#   SEEDS     the seeds ("1 2 3 4 5")
#   SCALE     every budget times SCALE (1)
#   SMOKE=1   a quick check of the whole chain: SEEDS=1, SCALE=0.1
#   PROBLEMS  ("score pipeline density accb"); accb stands for its families,
#             accb-FAMILY for one
#   TUNERS    (cetune-STRATEGY for each strategy, optuna-tpe optuna-cmaes
#             optuna-cmaes-matched optuna-random irace; optuna-cmaes-matched
#             starts CMA-ES at the first seed with cetune's sigma0, 0.1 of
#             every range, and batches of lambda = 4 + floor(3 ln genes))
#   BATCH     configurations per evaluate call of Optuna (20; irace sends
#             each race step whole)
#   THREADS   threads of every cetune call (all cores)
#   FORCE=1   redo runs that already have a result.json (else they are kept,
#             so an interrupted comparison goes on where it stopped)
# Needs scripts/install-deps.sh's python3-optuna, python3-cmaes, r-cran-irace
# and gnuplot.  Runtime (docs/experiment.md, "Tuners compared"; --threads 1
# on two loaded cores): cetune's runs take seconds to two minutes, Optuna's
# CMA-ES 17 minutes per seed on pipeline and TPE 17 on score (the samplers'
# own work), irace 8 minutes on score; the whole comparison takes many
# hours (extrapolated, not measured): run it in parts.
# SMOKE=1 on density and one accb family takes about two minutes.
set -euo pipefail
die() { echo "tuner-comparison.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
  --seeds | --problems | --tuners)
    [ $# -ge 2 ] || die "$1 needs a list"
    v=${2//,/ }
    case $1 in --seeds) SEEDS=$v ;; --problems) PROBLEMS=$v ;; *) TUNERS=$v ;; esac
    shift 2 ;;
  --seeds=* | --problems=* | --tuners=*)
    v=${1#*=} v=${v//,/ }
    case $1 in --seeds=*) SEEDS=$v ;; --problems=*) PROBLEMS=$v ;; *) TUNERS=$v ;; esac
    shift ;;
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  --) shift; break ;;
  -*) die "unknown option $1 (--seeds, --problems, --tuners)" ;;
  *) break ;;
  esac
done
[ $# -le 3 ] || die "too many arguments (CETUNE CORPORA OUT)"
# The relative paths below are from the repository: the outputs' are made absolute first.
[ $# -ge 3 ] && set -- "$1" "$2" "$(realpath -m "$3")"
[ $# -ge 2 ] && set -- "$1" "$(realpath -m "$2")" "${@:3}"
[ $# -ge 1 ] && set -- "$(realpath -m "$1")" "${@:2}"
cd "$(dirname "$0")/.."
cetune=$(realpath -m "${1:-build/cetune}")
corpora=${2:-../shared/corpora}
out=${3:-runs/tuner-comparison}
if [ "${SMOKE:-0}" = 1 ]; then
  : "${SEEDS:=1}" "${SCALE:=0.1}"
fi
read -r -a seeds <<<"${SEEDS:-1 2 3 4 5}"
scale=${SCALE:-1}
read -r -a problems <<<"${PROBLEMS:-score pipeline density accb}"
batch=${BATCH:-20}
threads=()
[ -n "${THREADS:-}" ] && threads=(--threads "$THREADS")
# Debian's python3, which has python3-optuna, whatever python3 comes first in PATH.
python=${PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
peer=("$python" scripts/tuner_peer.py)

[ -x "$cetune" ] || die "$cetune not found; build first: cmake -S . -B build && cmake --build build -j"
dirs=()
for c in portals cleaneval-dev scrapinghub big5; do
  [ -d "$corpora/$c" ] || die "$corpora/$c not found; give the corpora folder as the second argument"
  dirs+=(-d "$corpora/$c")
done
# The strategies evolve offers (`--strategy a|b`); the GA alone before there was a choice.
read -r -a strategies <<<"$("$cetune" evolve --help | sed -n 's/.*--strategy \([a-z|]*\).*/\1/p' |
  head -1 | tr '|' ' ')"
[ ${#strategies[@]} -gt 0 ] || strategies=(ga)
default_tuners=()
for s in "${strategies[@]}"; do default_tuners+=("cetune-$s"); done
default_tuners+=(optuna-tpe optuna-cmaes optuna-cmaes-matched optuna-random irace)
read -r -a tuners <<<"${TUNERS:-${default_tuners[*]}}"
for t in "${tuners[@]}"; do
  case $t in
  optuna-*) "$python" -c 'import optuna, cmaes' 2>/dev/null ||
    die "$python cannot import optuna and cmaes: run scripts/install-deps.sh" ;;
  irace) Rscript -e 'library(irace)' >/dev/null 2>&1 || die "R's irace is missing: run scripts/install-deps.sh" ;;
  cetune-*) ;;
  *) die "unknown tuner $t (cetune-STRATEGY, optuna-tpe, optuna-cmaes, optuna-cmaes-matched, optuna-random, irace)" ;;
  esac
done
command -v gnuplot >/dev/null || die "gnuplot is missing: run scripts/install-deps.sh"
mkdir -p "$out"
log() { printf '== %s\n' "$*" >&2; }
budget() { awk -v b="$1" -v s="$scale" 'BEGIN { n = int(b * s + 0.5); print n < 10 ? 10 : n }'; }

# The 120-document sample of scripts/experiment.sh and the 370 others.
"$cetune" sample "${dirs[@]}" -n 120 --seed 2008 -o "$out/sample.txt" --force 2>/dev/null
"$cetune" sample "${dirs[@]}" -n 1000000 --seed 2008 -o "$out/all.txt" --force 2>/dev/null
grep -v '^#' "$out/sample.txt" | grep -vxF -f - "$out/all.txt" | grep -v '^#' >"$out/dev.txt"

# setup PROBLEM: sets params, pdirs, train, dev, evals, and writes the problem's folder.
setup() {
  local p=$1
  mkdir -p "$out/$p"
  pdirs=("${dirs[@]}")
  train=$out/sample.txt
  dev=$out/dev.txt
  case $p in
  score)
    params=$out/$p/score.json
    "$python" -c 'import json, sys; d = json.load(open(sys.argv[1])); d.pop("seeds", None)
json.dump(d, open(sys.argv[2], "w"), indent=1)' params/score.json "$params"
    evals=$(budget 800) ;;
  pipeline) params=params/pipeline.json; evals=$(budget 1600) ;;
  density) params=params/density.json; evals=$(budget 400) ;;
  accb-*)
    local fam=${p#accb-} n
    params=params/accb.json
    evals=$(budget 200)
    pdirs=(-d "$corpora/portals/$fam")
    n=$(find "$corpora/portals/$fam" -name '*.html' | wc -l)
    train=$out/$p/train.txt
    dev=$out/$p/dev.txt
    "$cetune" sample "${pdirs[@]}" -n $((n / 2)) --seed 2008 -o "$train" --force 2>/dev/null
    "$cetune" sample "${pdirs[@]}" -n 1000000 --seed 2008 -o "$out/$p/all.txt" --force 2>/dev/null
    grep -v '^#' "$train" | grep -vxF -f - "$out/$p/all.txt" | grep -v '^#' >"$dev" ;;
  *) die "unknown problem $p (score, pipeline, density, accb)" ;;
  esac
  local ntrain ndev
  ntrain=$(grep -vc '^#' "$train")
  ndev=$(grep -vc '^#' "$dev")
  echo "$(basename "$params"), $evals evaluations, $ntrain training documents, $ndev dev documents" \
    >"$out/$p/problem.txt"
}

# run TUNER SEED DIR: one search into DIR, leaving best.json and trace.csv.
run() {
  local t=$1 s=$2 d=$3
  case $t in
  cetune-*)
    strategy=()  # before evolve had --strategy, the GA without the option
    # The help is read whole first: grep -q would close the pipe early, and
    # cetune's failed write of the rest (SIGPIPE) failed the pipeline.
    local help
    help=$("$cetune" evolve --help)
    [[ $help == *--strategy* ]] && strategy=(--strategy "${t#cetune-}")
    # The search on every training document, as the peers': best.json is the
    # best training fitness (the final choice is measured with --folds).
    if [[ $help == *--choose* ]]; then strategy+=(--choose search)
    elif [[ $help == *--holdout* ]]; then strategy+=(--holdout 0); fi
    # Parameters alone, as the peers tune them: no site rules (docs/site.md).
    [[ $help == *--no-site* ]] && strategy+=(--no-site)
    "$cetune" evolve "${strategy[@]}" -p "$params" "${pdirs[@]}" -s "$train" \
      --max-evals "$evals" --patience 0 --generations 0 --seed "$s" "${threads[@]}" \
      -o "$d" --force
    "${peer[@]}" trace "$d" ;;
  optuna-*)
    local sampler=${t#optuna-} matched=()
    # optuna-cmaes-matched: x0 the start, cetune's sigma0 and lambda (tuner_peer.py --matched).
    [ "$sampler" = cmaes-matched ] && sampler=cmaes matched=(--matched)
    "${peer[@]}" optuna --cetune "$cetune" -p "$params" "${pdirs[@]}" -s "$train" \
      --sampler "$sampler" "${matched[@]}" --seed "$s" --budget "$evals" --batch "$batch" \
      ${THREADS:+--threads "$THREADS"} -o "$d" ;;
  irace)
    "${peer[@]}" space -p "$params" -o "$d/space"
    Rscript scripts/tuner-irace.R "$cetune" "$d/space" "$train" "$s" \
      $((evals * $(grep -vc '^#' "$train"))) "$d" "${THREADS:-0}" "${pdirs[@]}"
    "${peer[@]}" elites --cetune "$cetune" "${pdirs[@]}" -s "$train" -o "$d" ;;
  esac
}

expanded=()
for p in "${problems[@]}"; do
  if [ "$p" = accb ]; then
    for f in "$corpora"/portals/*/; do expanded+=("accb-$(basename "$f")"); done
  else
    expanded+=("$p")
  fi
done
t_all=$(date +%s)
for p in "${expanded[@]}"; do
  setup "$p"
  log "$p: $(cat "$out/$p/problem.txt")"
  for t in "${tuners[@]}"; do
    for s in "${seeds[@]}"; do
      d=$out/$p/$t-$s
      if [ -f "$d/result.json" ] && [ "${FORCE:-0}" != 1 ]; then continue; fi
      rm -rf "$d"
      mkdir -p "$d"
      t0=$(date +%s.%N)
      run "$t" "$s" "$d" >"$d.log" 2>&1 || { tail -20 "$d.log" >&2; die "$t seed $s on $p failed (log: $d.log)"; }
      t1=$(date +%s.%N)
      "${peer[@]}" score --cetune "$cetune" "${pdirs[@]}" -s "$train" --dev "$dev" \
        --seconds "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" ${THREADS:+--threads "$THREADS"} "$d"
      log "$p $t seed $s: $(cat "$d/result.json")"
    done
  done
done
"${peer[@]}" tables --problems "${expanded[*]}" --tuners "${tuners[*]}" --seeds "${seeds[*]}" "$out"
log "done in $(($(date +%s) - t_all)) s: $out/tables.md, $out/PROBLEM.png"
