# cetune evolve --strategy cmaes (docs/cmaes.md): the same results for any
# --threads; SIGINT then --resume (twice: the second from a restored state)
# and SIGKILL then --resume end byte-identically with the run left alone;
# --pop sets lambda, the seeds and --seed-config make generation 0;
# --objective and --constraint, --top, report, --max-evals, --validate and
# --folds work; --race and --pareto are refused with their reason.  On a float description (score) and on the
# mixed, conditional pipeline.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
D=$SRC/samples/demo
for p in score pipeline; do
  RUN="-p $SRC/params/$p.json -d $D --strategy cmaes --generations 40 --patience 0 --seed 7 --choose search"
  expect_status 0 "$CETUNE" evolve $RUN --threads 1 -o "$TMP/$p-t1"
  expect_status 0 "$CETUNE" evolve $RUN --threads 3 -o "$TMP/$p-t3"
  same_run "$TMP/$p-t1" "$TMP/$p-t3" "between --threads 1 and 3 ($p)"
  expect_grep "$TMP/$p-t1/checkpoint.json" '"name":	"cmaes"'

  # SIGINT, resume, SIGINT again (the state now comes from a checkpoint), resume.
  signal_at INT "$TMP/$p-int" 5 "$CETUNE" evolve $RUN --threads 2 -o "$TMP/$p-int"
  first=$(generation "$TMP/$p-int")
  signal_at INT "$TMP/$p-int" $((first + 4)) "$CETUNE" evolve --resume "$TMP/$p-int" --threads 1
  expect_status 0 "$CETUNE" evolve --resume "$TMP/$p-int" --threads 2
  same_run "$TMP/$p-t1" "$TMP/$p-int" "after SIGINT and --resume ($p)"

  # SIGKILL: resumed from the last checkpoint on disk.
  "$CETUNE" evolve $RUN --threads 1 -o "$TMP/$p-kill" >/dev/null 2>&1 &
  pid=$!
  wait_generation "$TMP/$p-kill" 6 $pid
  kill -KILL $pid
  { wait $pid; } 2>/dev/null
  expect_status 0 "$CETUNE" evolve --resume "$TMP/$p-kill" --threads 2
  same_run "$TMP/$p-t1" "$TMP/$p-kill" "after SIGKILL and --resume ($p)"
done

# Generation 0 is the seeds (score.json has 2); then CMA-ES's default lambda
# (4 + 3 ln 46 = 15 for score's 46 parameters), or --pop, samples per iteration.
awk -F, 'NR > 1 { n[$1]++ } END { print n[0], n[1], n[2] }' "$TMP/score-t1/individuals.csv" >"$TMP/counts"
expect_grep "$TMP/counts" '^2 15 15$'
expect_status 0 "$CETUNE" evolve -p "$SRC/params/score.json" -d "$D" --strategy cmaes --pop 6 \
  --generations 4 --seed 7 --seed-config "$TMP/score-t1/best.json" -o "$TMP/pop6"
awk -F, 'NR > 1 { n[$1]++ } END { print n[0], n[1], n[3] }' "$TMP/pop6/individuals.csv" >"$TMP/counts"
expect_grep "$TMP/counts" '^3 6 6$'
expect_grep "$TMP/pop6/run.json" '"pop":	6'

# The goal: a constraint ranks feasible settings first (Deb's rules).
expect_status 0 "$CETUNE" evolve -p "$SRC/params/score.json" -d "$D" --strategy cmaes \
  --generations 8 --seed 7 --objective precision --constraint 'recall>=0.9' --top 3 -o "$TMP/goal"
python3 - "$TMP/goal/best.json" "$TMP/goal/top.json" <<'EOF' >"$TMP/goal.out" 2>&1 && ok || fail "constraint: $(cat "$TMP/goal.out")"
import json, sys
best = json.load(open(sys.argv[1]))
top = json.load(open(sys.argv[2]))
assert len(top) == 3, top
assert top[0]["violation"] == 0 and top[0]["recall"] >= 0.9, top[0]
assert best["fitness"] == top[0]["fitness"] and abs(best["fitness"] - top[0]["precision"]) < 1e-6
EOF
expect_status 0 "$CETUNE" report "$TMP/goal"

# --max-evals is spent exactly; --folds and --validate run with cmaes too.
expect_status 0 "$CETUNE" evolve -p "$SRC/params/score.json" -d "$D" --strategy cmaes \
  --max-evals 30 --patience 0 --generations 0 --seed 7 --validate "$D" -o "$TMP/evals"
if [ "$(tail -1 "$TMP/evals/generations.csv" | cut -d, -f2)" = 30 ]; then ok; else fail "--max-evals 30 not spent exactly"; fi
if [ -s "$TMP/evals/validation.csv" ]; then ok; else fail "no validation.csv"; fi
expect_status 0 "$CETUNE" evolve -p "$SRC/params/score.json" -d "$D" --strategy cmaes \
  --folds 2 --generations 3 --seed 7 -o "$TMP/folds"
if [ -s "$TMP/folds/folds.csv" ]; then ok; else fail "no folds.csv"; fi
expect_grep "$TMP/folds/folds/1/run.json" "strategy cmaes"

# Refused, with the reason.
expect_status 2 "$CETUNE" evolve -p "$SRC/params/score.json" -d "$D" --strategy cmaes --race -o "$TMP/x"
expect_grep "$TMP/err" "race works with --strategy ga only"
expect_status 2 "$CETUNE" evolve -p "$SRC/params/score.json" -d "$D" --strategy cmaes \
  --pareto precision,recall -o "$TMP/y"
expect_grep "$TMP/err" "pareto works with --strategy ga only"
finish
