# cetune evolve with conditional parameters and a forbidden combination
# (tests/data/ga/conditional.json, Crunch on samples/demo): inactive
# parameters are empty in individuals.csv and absent from best.json and
# top.json, the forbidden combination is never evaluated, one and two
# threads give the same files, best.json is scored and applied as it is,
# an interrupted run resumes to the same files, and a mistake in a
# condition is refused with its line and column.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
P=$SRC/tests/data/ga/conditional.json
RUN="-p $P -d $SRC/samples/demo --sample-size 10 --pop 10 --generations 6 --seed 5"

expect_status 0 "$CETUNE" evolve $RUN --threads 1 -o "$TMP/t1"
expect_status 0 "$CETUNE" evolve $RUN --threads 2 -o "$TMP/t2"
same_run "$TMP/t1" "$TMP/t2" "between 1 and 2 threads"

# Columns: generation, remove_link_lists, link_text_ratio, chars_per_word,
# remove_empty_tables, min_text_length, ignore_forms, ignore_text_links.
I=$TMP/t1/individuals.csv
if [ "$(head -1 "$I" | cut -d, -f1-8)" = "generation,remove_link_lists,link_text_ratio,chars_per_word,remove_empty_tables,min_text_length,ignore_forms,ignore_text_links" ]; then ok
else fail "individuals.csv header: $(head -1 "$I")"; fi
bad=$(awk -F, 'NR > 1 && (($2 == "false") != ($3 == "" && $4 == "") || ($5 == "false") != ($6 == ""))' "$I" | wc -l)
if [ "$bad" -eq 0 ]; then ok; else fail "$bad rows of individuals.csv with cells that disagree with their conditions"; fi
if awk -F, 'NR > 1 && $2 == "false"' "$I" | grep -q .; then ok; else fail "no individual without link-list removal"; fi
if awk -F, 'NR > 1 && $7 == "true" && $8 == "true"' "$I" | grep -q .; then fail "a forbidden combination was evaluated"; else ok; fi
# Genomes that differ only in inactive genes are one individual.
if [ "$(tail -n +2 "$I" | cut -d, -f2-8 | sort | uniq -d | wc -l)" -eq 0 ]; then ok
else fail "an individual was evaluated twice"; fi

# best.json and top.json leave inactive parameters out.
B=$TMP/t1/best.json
if grep -q '"remove_empty_tables": false' "$B"; then
  if grep -q '"min_text_length"' "$B"; then fail "inactive min_text_length in best.json"; else ok; fi
else
  expect_grep "$B" '"min_text_length"'
fi
n_off=$(grep -o '"remove_empty_tables": false' "$TMP/t1/top.json" | wc -l)
n_len=$(grep -o '"min_text_length"' "$TMP/t1/top.json" | wc -l)
n_all=$(grep -o '"extractor"' "$TMP/t1/top.json" | wc -l)
if [ $((n_off + n_len)) -eq "$n_all" ]; then ok; else fail "top.json: $n_all entries, $n_off without tables, $n_len with min_text_length"; fi

# Scored and applied as it is (absent parameters take the extractor's defaults).
expect_status 0 "$CETUNE" evaluate -c "$B" -d "$SRC/samples/demo" -s "$TMP/t1/sample.txt" --per-doc --format csv
mean=$(awk -F, 'NR > 1 { s += $8; n++ } END { printf "%.6f", s / n }' "$TMP/out")
claimed=$(sed 's/.*"fitness": \([0-9.]*\).*/\1/' "$B")
if awk -v a="$mean" -v b="$claimed" 'BEGIN { exit !(a - b < 1e-6 && b - a < 1e-6) }'; then ok
else fail "best.json claims $claimed, evaluate gives $mean"; fi
page=$(find "$SRC/samples/demo" -name '*.html' | sort | head -1)
expect_status 0 "$CETUNE" extract -c "$B" "$page"
if [ -s "$TMP/out" ]; then ok; else fail "extract -c best.json extracted nothing"; fi

# The report plots active genes only (inactive ones are NaN in its data).
expect_status 0 "$CETUNE" report "$TMP/t1"
expect_grep "$TMP/t1/report-explored.dat" 'NaN'

# Interrupted, then resumed: the same files as the run left alone.
LONG="-p $P -d $SRC/samples/demo --sample-size 10 --pop 8 --generations 30 --patience 0 --resolution 0 --seed 9"
expect_status 0 "$CETUNE" evolve $LONG --threads 2 -o "$TMP/ref"
signal_at INT "$TMP/run" 2 "$CETUNE" evolve $LONG --threads 1 -o "$TMP/run"
expect_status 0 "$CETUNE" evolve --resume "$TMP/run" --threads 2
same_run "$TMP/ref" "$TMP/run" "after --resume"

# A condition on an unknown parameter is refused with its line and column.
sed 's/"when": {"remove_empty_tables"/"when": {"remove_empty_table"/' "$P" > "$TMP/bad.json"
expect_status 2 "$CETUNE" evolve -p "$TMP/bad.json" -d "$SRC/samples/demo" -o "$TMP/bad"
line=$(grep -n '"remove_empty_table"' "$TMP/bad.json" | cut -d: -f1)
expect_grep "$TMP/err" "bad.json:$line:[0-9]*: condition names \"remove_empty_table\", but extractor 'crunch' has no such parameter"
finish
