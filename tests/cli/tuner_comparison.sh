#!/bin/bash
# scripts/tuner-comparison.sh in smoke mode on two small problems (density
# on the 120-document sample, accb on the bbc family), one seed, a tenth of
# the budgets: every tuner finishes, spends its budget (exactly for cetune
# and Optuna, at most for irace), the peers' fitness is cetune's (the
# exported best.json's fitness is its mean F1 over the training documents),
# and the tables and plots are written.
# usage: tuner_comparison.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
. "$SRC/tests/cli_lib.sh"
need_corpora portals cleaneval-dev scrapinghub big5
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" -c 'import optuna, cmaes' 2>/dev/null ||
  { echo "skipping: $py has no optuna/cmaes (scripts/install-deps.sh installs them)"; exit 77; }
Rscript -e 'library(irace)' >/dev/null 2>&1 ||
  { echo "skipping: R's irace is absent (scripts/install-deps.sh installs it)"; exit 77; }
command -v gnuplot >/dev/null || { echo "skipping: gnuplot is absent"; exit 77; }

SMOKE=1 SCALE=0.1 THREADS=2 \
  "$SRC/scripts/tuner-comparison.sh" --seeds 1 --problems density,accb-bbc "$CETUNE" "$C" "$TMP/out" \
  >"$TMP/log" 2>&1
rc=$?
tail -30 "$TMP/log"
[ $rc = 0 ] || die "tuner-comparison.sh exit $rc"
read -r -a strategies <<<"$("$CETUNE" evolve --help | sed -n 's/.*--strategy \([a-z|]*\).*/\1/p' |
  head -1 | tr '|' ' ')"
[ ${#strategies[@]} -gt 0 ] || strategies=(ga)
tuners=(optuna-tpe optuna-cmaes optuna-cmaes-matched optuna-random irace)
for s in "${strategies[@]}"; do tuners+=("cetune-$s"); done
for p in density:40 accb-bbc:20; do
  prob=${p%:*} budget=${p#*:}
  for t in "${tuners[@]}"; do
    d=$TMP/out/$prob/$t-1
    [ -f "$d/result.json" ] || { fail "$prob $t: no result.json"; continue; }
    evals=$(sed 's/.*"evaluations": \([0-9]*\).*/\1/' "$d/result.json")
    if [ "$t" = irace ]; then
      [ "$evals" -le "$budget" ] && [ "$evals" -gt 0 ] && ok || fail "$prob irace: $evals evaluations, budget $budget"
    else
      [ "$evals" = "$budget" ] && ok || fail "$prob $t: $evals evaluations, budget $budget"
    fi
    # The same fitness everywhere: best.json's own figure is the mean F1
    # that evaluate gives over the training documents.
    "$py" - "$d" <<'EOF' && ok || fail "$prob $t: best.json's fitness is not its training mean F1"
import json, sys
b = json.load(open(sys.argv[1] + "/best.json"))
r = json.load(open(sys.argv[1] + "/result.json"))
sys.exit(abs(b["fitness"] - r["train"]) > 2e-6 or not 0 < r["dev_macro_f1"] <= 1)
EOF
    grep -q "^| $t | [0-9]" "$TMP/out/tables.md" && ok || fail "$prob $t: no row in tables.md"
  done
  [ -s "$TMP/out/$prob.png" ] && ok || fail "$prob: no convergence plot"
done
finish
