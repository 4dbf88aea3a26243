# cetune evolve: the run directory, reproducibility across thread counts,
# independent scoring of best.json, refusal to overwrite, and errors.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
G=$SRC/tests/data/ga
# --no-site: best.json as the GA alone makes it (the golden of test_ga_golden.c).
RUN="-p $G/lqf.json -d $G/corpus --pop 8 --generations 5 --seed 7 --no-site"

# The run directory (docs/formats.md), the same for one and two threads.
expect_status 0 "$CETUNE" evolve $RUN --threads 1 -o "$TMP/t1"
expect_grep "$TMP/out" '^lqf on 8 documents: 5 generations'
expect_grep "$TMP/out" '^ *rank *t *fitness'
expect_grep "$TMP/out" "best configuration: $TMP/t1/best.json"
expect_grep "$TMP/out" '^defaults (t=0.25): fitness 0.5615'
if grep -q $'\r' "$TMP/err"; then fail "progress line written to a non-terminal"; else ok; fi
for f in run.json generations.csv individuals.csv top.json best.json sample.txt checkpoint.json; do
  if [ -s "$TMP/t1/$f" ]; then ok; else fail "missing $f"; fi
done
if ls "$TMP/t1" | grep -q tmp; then fail "temporary files left: $(ls "$TMP/t1")"; else ok; fi
expect_status 0 "$CETUNE" evolve $RUN --threads 2 -o "$TMP/t2"
same_run "$TMP/t1" "$TMP/t2" "between 1 and 2 threads"
if cmp -s <(grep -v '^#' "$TMP/t1/sample.txt") <(grep -v '^#' "$TMP/t2/sample.txt"); then ok
else fail "sample.txt differs between 1 and 2 threads"; fi
# The stored golden result (tests/unit/test_ga_golden.c) is what the command writes too.
same_files "$G/golden" "$TMP/t1" "from tests/data/ga/golden" best.json individuals.csv top.json
if [ "$(head -1 "$TMP/t1/generations.csv")" = "generation,evaluations,best,mean,worst,std,diversity,seconds,doc_evaluations" ]; then ok
else fail "generations.csv header"; fi
if [ "$(head -1 "$TMP/t1/individuals.csv")" = "generation,t,fitness,precision,recall,docs_evaluated,raced_out" ]; then ok
else fail "individuals.csv header"; fi
expect_grep "$TMP/t1/run.json" '"status":	"finished"'
expect_grep "$TMP/t1/run.json" '"stop":	"generations"'
expect_grep "$TMP/t1/run.json" '"libxml2":'
expect_grep "$TMP/t1/run.json" "\"command\":	\"cetune evolve -p $G/lqf.json"

# best.json scored independently: evaluate's mean per-document F1 on the run's
# sample equals the fitness it claims.
expect_status 0 "$CETUNE" evaluate -c "$TMP/t1/best.json" -d "$G/corpus" -s "$TMP/t1/sample.txt" --per-doc --format csv
mean=$(awk -F, 'NR > 1 { s += $8; n++ } END { printf "%.6f", s / n }' "$TMP/out")
claimed=$(sed 's/.*"fitness": \([0-9.]*\).*/\1/' "$TMP/t1/best.json")
if awk -v a="$mean" -v b="$claimed" 'BEGIN { exit !(a - b < 1e-6 && b - a < 1e-6) }'; then ok
else fail "best.json claims $claimed, evaluate gives $mean"; fi

# Never overwrite a run without --force.
expect_status 1 "$CETUNE" evolve $RUN -o "$TMP/t1"
expect_grep "$TMP/err" "t1 exists and is not empty; use --force"
expect_status 0 "$CETUNE" evolve $RUN --seed 8 -o "$TMP/t1" --force
if cmp -s "$TMP/t1/individuals.csv" "$TMP/t2/individuals.csv"; then fail "--force did not rerun"; else ok; fi

# A seed configuration joins generation 0 (after the description's seed).
printf '{"extractor": "lqf", "params": {"t": 0.6}}\n' > "$TMP/seed.json"
expect_status 0 "$CETUNE" evolve $RUN --seed-config "$TMP/seed.json" --generations 1 -o "$TMP/s"
if [ "$(sed -n 3p "$TMP/s/individuals.csv" | cut -d, -f1-2)" = "0,0.6" ]; then ok; else fail "seed config not in generation 0"; fi
printf '{"extractor": "alltext"}\n' > "$TMP/other.json"
expect_status 2 "$CETUNE" evolve $RUN --seed-config "$TMP/other.json" -o "$TMP/s2"
expect_grep "$TMP/err" "a configuration of 'alltext', but the run evolves 'lqf'"

# --max-evals is exact; truncation selection and adaptive mutation run.
expect_status 0 "$CETUNE" evolve $RUN --generations 50 --max-evals 13 --select truncation --adaptive -o "$TMP/m"
expect_grep "$TMP/out" '13 evaluations, stopped by max-evals'
if [ "$(($(wc -l < "$TMP/m/individuals.csv") - 1))" -eq 13 ]; then ok; else fail "max-evals not exact"; fi

# Malformed parameter descriptions: file:line:col and exit status 2.
expect_status 2 "$CETUNE" evolve -p "$G/bad-range.json" -d "$G/corpus" -o "$TMP/b"
expect_grep "$TMP/err" 'bad-range.json:4:43: "min" 0.9 is above "max" 0.1'
expect_status 2 "$CETUNE" evolve -p "$G/bad-syntax.json" -d "$G/corpus" -o "$TMP/b"
expect_grep "$TMP/err" 'bad-syntax.json:4:47: malformed JSON'
expect_status 2 "$CETUNE" evolve -p "$G/bad-param.json" -d "$G/corpus" -o "$TMP/b"
expect_grep "$TMP/err" "bad-param.json:5:14: extractor 'lqf' has no parameter \"threshold\""
if [ -e "$TMP/b" ]; then fail "a refused run left a directory"; else ok; fi

# Usage errors.
expect_status 2 "$CETUNE" evolve -d "$G/corpus"
expect_grep "$TMP/err" 'give a parameter description'
expect_status 2 "$CETUNE" evolve -p "$G/lqf.json"
expect_status 2 "$CETUNE" evolve $RUN -s x.txt --sample-size 3
expect_grep "$TMP/err" 'exclude each other'
expect_status 2 "$CETUNE" evolve $RUN --pop 1
expect_status 2 "$CETUNE" evolve $RUN --elite 8
expect_status 2 "$CETUNE" evolve $RUN --select roulette
expect_status 2 "$CETUNE" evolve $RUN --mutation-sigma 2
expect_status 2 "$CETUNE" evolve $RUN --time 5x
expect_status 2 "$CETUNE" evolve $RUN --frobnicate
expect_status 2 "$CETUNE" evolve --resume "$TMP/t1" --pop 9
expect_grep "$TMP/err" 'only --threads, --quiet, --progress may be given'
expect_status 1 "$CETUNE" evolve --resume "$TMP/nothing-here"
expect_status 0 "$CETUNE" evolve --help
expect_grep "$TMP/out" 'usage: cetune evolve'

# Resuming a finished run changes nothing and says so.
cp "$TMP/t2/best.json" "$TMP/best.before"
expect_status 0 "$CETUNE" evolve --resume "$TMP/t2"
expect_grep "$TMP/err" 'has finished already'
if cmp -s "$TMP/best.before" "$TMP/t2/best.json"; then ok; else fail "resume of a finished run changed best.json"; fi
finish
