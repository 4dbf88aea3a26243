# cetune evolve --race on the demo corpus: the same files for one and two
# threads, the racing columns and summary, report.md's table of documents
# evaluated, option errors, and a raced run
# interrupted by SIGINT (usually in the middle of a generation) and resumed
# ends with the same files as the run left alone.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
D=$SRC/samples/demo
RACE="--race --race-first 6 --race-block 3 --race-alpha 0.1"
RUN="-p $SRC/params/density.json -d $D --pop 16 --generations 8 --patience 0 --seed 5 $RACE"

expect_status 0 "$CETUNE" evolve $RUN --threads 1 -o "$TMP/t1"
expect_grep "$TMP/out" '^density on 36 documents: 8 generations'
expect_grep "$TMP/out" 'document evaluations, [0-9.]*x fewer than evaluating every individual fully'
expect_grep "$TMP/err" 'racing new individuals against the best: a sign-flip test at alpha 0.1 after its pages below F1 0.5 and 6 documents, then every 3'
expect_status 0 "$CETUNE" evolve $RUN --threads 2 -o "$TMP/t2"
same_run "$TMP/t1" "$TMP/t2" "between 1 and 2 threads"

# Raced-out rows: fewer documents, flagged, never in top.json or best.json.
raced=$(awk -F, 'NR > 1 && $NF == 1 && $(NF-1) < 36' "$TMP/t1/individuals.csv" | wc -l)
full=$(awk -F, 'NR > 1 && $NF == 0 && $(NF-1) == 36' "$TMP/t1/individuals.csv" | wc -l)
rows=$(($(wc -l < "$TMP/t1/individuals.csv") - 1))
if [ "$raced" -gt 0 ] && [ $((raced + full)) -eq "$rows" ]; then ok
else fail "individuals.csv: $raced raced out + $full full != $rows rows"; fi
docs=$(awk -F, 'NR > 1 { s += $(NF-1) } END { print s }' "$TMP/t1/individuals.csv")
last=$(tail -1 "$TMP/t1/generations.csv" | cut -d, -f9)
if [ "$docs" = "$last" ] && [ "$last" -lt $((rows * 36)) ]; then ok
else fail "doc_evaluations $last, individuals.csv sums to $docs of $((rows * 36))"; fi
fit=$(sed -n 's/.*"fitness": \([0-9.]*\).*/\1/p' "$TMP/t1/best.json")
if awk -F, -v f="$fit" 'NR > 1 && $NF == 0 && $(NF-4) + 0 > f + 1e-6 { bad = 1 } END { exit bad }' "$TMP/t1/individuals.csv"; then ok
else fail "a fully evaluated individual beats best.json"; fi
expect_grep "$TMP/t1/run.json" '"race":	true'
expect_grep "$TMP/t1/run.json" '"race_order":'
expect_grep "$TMP/t1/checkpoint.json" '"incumbent_f1":'

# report.md tells how many documents the individuals were evaluated on.
expect_status 0 "$CETUNE" report "$TMP/t1"
expect_grep "$TMP/t1/report.md" '^## Documents evaluated'
expect_grep "$TMP/t1/report.md" "individuals were raced out"
expect_grep "$TMP/t1/report.md" '^| 36 (all) | '
expect_grep "$TMP/t1/report.md" '^| race_order | 36 documents'

# Option errors are usage errors.
expect_status 2 "$CETUNE" evolve $RUN --race-first 0 -o "$TMP/bad"
expect_grep "$TMP/err" "race-first expects a whole number from 1 to"
expect_status 2 "$CETUNE" evolve $RUN --race-alpha 0.9 -o "$TMP/bad"
expect_grep "$TMP/err" "race-alpha expects a number in (0, 0.5]"
expect_status 2 "$CETUNE" evolve $RUN --race-weak 1.5 -o "$TMP/bad"
expect_grep "$TMP/err" "race-weak expects a number from 0 to 1"
expect_status 2 "$CETUNE" evolve --resume "$TMP/t1" --race-alpha 0.1
expect_status 2 "$CETUNE" evolve $RUN --objective precision -o "$TMP/bad"
expect_grep "$TMP/err" "race works with the default objective"

# SIGINT during a longer raced run, then --resume: the same files.
LONG="-p $SRC/params/density.json -d $D --pop 20 --generations 25 --patience 0 --resolution 0 --seed 11 $RACE --threads 2"
expect_status 0 "$CETUNE" evolve $LONG -o "$TMP/ref"
signal_at INT "$TMP/run" 3 "$CETUNE" evolve $LONG -o "$TMP/run"
expect_status 0 "$CETUNE" evolve --resume "$TMP/run" --threads 1
grep -q "was raced on" "$TMP/err" && echo "(interrupted in the middle of a raced generation)"
same_run "$TMP/ref" "$TMP/run" "from the uninterrupted run"
finish
