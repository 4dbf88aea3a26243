# cetune evolve --folds K: one run directory per fold with its document
# lists, held-out figures that evaluate reproduces, folds.csv and the
# printed estimate, the folds in run.json, threads changing nothing, an
# interruption during a fold resumed to the same files, --force clearing
# the folds, report's folds table.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
DEMO=$SRC/samples/demo
RUN="-p $SRC/params/density.json -d $DEMO --sample-size 20 --pop 8 --generations 4 --seed 3 --folds 4"

expect_status 0 "$CETUNE" evolve $RUN --threads 2 -o "$TMP/f"
F=$TMP/f/folds.csv
expect_grep "$F" '^fold,train_docs,heldout_docs,train_fitness,heldout_f1,heldout_f1_start,gain,heldout_f1_start_site$'
if [ "$(wc -l < "$F")" -eq 5 ]; then ok; else fail "folds.csv has $(wc -l < "$F") lines, expected 5"; fi
expect_grep "$TMP/out" '^estimate on unseen pages: [+-]0\.[0-9]* F1 over the start (80% interval [+-]0\.[0-9]* to [+-]0\.[0-9]*, 20 pages)$'
# The start with its folds' site rules: a column, and its mean beside the estimate.
expect_grep "$TMP/out" '^  the start with site rules alone: [+-]0\.[0-9]*$'
expect_grep "$TMP/out" 'start+site$'
expect_grep "$TMP/out" '^cross-validation over 4 folds of the 20 training documents'
# The folds partition the sample, each package spread over them.
cat "$TMP"/f/folds/*/heldout.txt | sort >"$TMP/held"
grep -v '^#' "$TMP/f/sample.txt" | sort >"$TMP/all"
if cmp -s "$TMP/held" "$TMP/all"; then ok; else fail "the held-out folds do not partition the sample"; fi
for k in 1 2 3 4; do
  d=$TMP/f/folds/$k
  if [ -z "$(sort "$d/train.txt" "$d/heldout.txt" | uniq -d)" ]; then ok; else fail "fold $k trains on held-out documents"; fi
  if [ "$(cut -d/ -f1 "$d/heldout.txt" | sort -u | wc -l)" -ge 2 ]; then ok; else fail "fold $k holds out one package only"; fi
  # Its held-out F1 (best, defaults) is what evaluate measures on its held-out list.
  mean_f1() { "$CETUNE" evaluate "$@" -d "$DEMO" -s "$d/heldout.txt" --per-doc --format csv 2>/dev/null |
              awk -F, 'NR > 1 { s += $8; n++ } END { printf "%.6f", s / n }'; }
  got="$(mean_f1 -c "$d/best.json"),$(mean_f1 -x density)"
  want=$(awk -F, -v k=$k '$1 == k { print $5 "," $6 }' "$F")
  # (per-document figures have six decimals: their mean is within 1e-5)
  if awk -v g="$got" -v w="$want" 'BEGIN { split(g, a, ","); split(w, b, ",")
       exit !(w != "" && (a[1] - b[1])^2 < 1e-10 && (a[2] - b[2])^2 < 1e-10) }'; then ok
  else fail "fold $k: evaluate gives $got, folds.csv $want"; fi
done
if tr -d '\n\t ' < "$TMP/f/run.json" | grep -q '"folds":4'; then ok; else fail "run.json does not record the folds"; fi

# One thread: the same files.
expect_status 0 "$CETUNE" evolve $RUN --threads 1 -o "$TMP/f1"
same_files "$TMP/f" "$TMP/f1" "between 2 and 1 threads" folds.csv best.json folds/2/best.json folds/3/individuals.csv

# Interrupted during a fold, resumed: the same files as the run left alone.
LONG="$RUN --generations 60 --patience 0 --resolution 0 --threads 2"
expect_status 0 "$CETUNE" evolve $LONG -o "$TMP/ref"
signal_at INT "$TMP/int/folds/2" 3 "$CETUNE" evolve $LONG -o "$TMP/int"
expect_grep "$TMP/err1" "resume with: cetune evolve --resume $TMP/int\$"
expect_status 0 "$CETUNE" evolve --resume "$TMP/int"
same_files "$TMP/ref" "$TMP/int" "after --resume" folds.csv best.json individuals.csv folds/2/individuals.csv

# report includes the folds table.
expect_status 0 "$CETUNE" report "$TMP/f"
expect_grep "$TMP/f/report.md" '^## Cross-validation'
expect_grep "$TMP/f/report.md" '^| 4 | 15 | 5 |'

# --force removes the folds; a sample smaller than K is refused.
expect_status 0 "$CETUNE" evolve -p "$SRC/params/density.json" -d "$DEMO" --sample-size 10 --generations 1 --pop 4 --choose search -o "$TMP/f" --force
if [ ! -e "$TMP/f/folds" ] && [ ! -e "$F" ]; then ok; else fail "--force left the folds"; fi
expect_status 2 "$CETUNE" evolve -p "$SRC/params/density.json" -d "$DEMO" --sample-size 3 --folds 4 -o "$TMP/small"
expect_grep "$TMP/err" 'folds 4 needs at least 4 training documents (one per fold); there are 3$'
if [ -e "$TMP/small" ]; then fail "a refused --folds made $TMP/small"; else ok; fi
# --folds larger than the training sample is a usage error found before the
# run directory is made (it was found after run.json and checkpoint.json).
expect_status 2 "$CETUNE" evolve -p "$SRC/params/lqf.json" -d "$SRC/samples/demo" --folds 100 -o "$TMP/r3"
expect_grep "$TMP/err" "folds 100 needs at least 100 training documents (one per fold); there are 36"
if [ -e "$TMP/r3" ]; then fail "--folds 100 made $TMP/r3"; else ok; fi
expect_status 2 "$CETUNE" evolve -p "$SRC/params/lqf.json" -d "$SRC/samples/demo" --sample-size 5 --folds 6 -o "$TMP/r4"
if [ -e "$TMP/r4" ]; then fail "--folds 6 of a 5-document sample made $TMP/r4"; else ok; fi
finish
