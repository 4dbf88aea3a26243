# evaluate's tables with several configurations: --per-doc in
# every format, unique and readable row labels (run directory, changed
# parameters, numbered when equal, a legend when long), whole column
# headers, and titles that name the metric.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
G=$SRC/tests/data/ga
C=$TMP/corpus
mkdir -p "$C"
cp -r "$G/corpus/blog" "$C/cleaneval-development-set"
cp -r "$G/corpus/news" "$C/news"
ndocs=$(ls "$C"/*/*.html | wc -l)

# --per-doc with several configurations: each configuration's rows.
expect_status 0 "$CETUNE" evaluate -x lqf -x accb -d "$C" --per-doc --format csv
if [ "$(head -1 "$TMP/out")" = "config,extractor,package,name,words_extract,words_gold,lcs,precision,recall,f1" ]; then ok
else fail "per-doc csv header: $(head -1 "$TMP/out")"; fi
if [ "$(grep -c '^"defaults",lqf,' "$TMP/out")" -eq "$ndocs" ] &&
   [ "$(grep -c '^"defaults",accb,' "$TMP/out")" -eq "$ndocs" ]; then ok
else fail "per-doc csv rows: $(cut -d, -f1-2 "$TMP/out" | sort | uniq -c | tr '\n' ' ')"; fi
# The rows are the single-configuration rows.
"$CETUNE" evaluate -x accb -d "$C" --per-doc --format csv 2>/dev/null | tail -n +2 > "$TMP/single"
if cmp -s "$TMP/single" <(grep '^"defaults",accb,' "$TMP/out" | cut -d, -f3-); then ok; else fail "per-doc rows differ from accb alone"; fi
expect_status 0 "$CETUNE" evaluate -x lqf -x accb -d "$C" --per-doc
expect_grep "$TMP/out" '^lqf (defaults): [0-9]* documents; metric: Word sequence'
expect_grep "$TMP/out" '^accb (defaults): '
if [ "$(grep -c '^news ' "$TMP/out")" -eq $((2 * $(ls "$C"/news/*.html | wc -l))) ]; then ok; else fail "per-doc table rows"; fi

# Labels: the run directory of a best.json, the changed parameters of -x,
# paths when directory names are equal, numbers when all else is equal.
mkdir -p "$TMP/runs/lqf-a" "$TMP/runs/lqf-b" "$TMP/x/run" "$TMP/y/run"
L=$TMP/a-directory-name-long-enough-for-a-legend
printf '{"extractor": "lqf", "params": {"t": 0.3}}\n' > "$TMP/runs/lqf-a/best.json"
printf '{"extractor": "lqf", "params": {"t": 0.35}}\n' > "$TMP/runs/lqf-b/best.json"
cp "$TMP/runs/lqf-a/best.json" "$TMP/x/run/best.json"
cp "$TMP/runs/lqf-b/best.json" "$TMP/y/run/best.json"
expect_status 0 "$CETUNE" evaluate -c "$TMP/runs/lqf-a/best.json" -c "$TMP/runs/lqf-b/best.json" \
  -x lqf -P t=0.4 -x lqf -x alltext -x alltext -d "$C"
expect_grep "$TMP/out" '^  lqf-a  '
expect_grep "$TMP/out" '^  lqf-b  '
expect_grep "$TMP/out" '^  t=0.4  '
expect_grep "$TMP/out" '^  defaults  '
expect_grep "$TMP/out" '^  defaults #5 '
expect_grep "$TMP/out" '^  defaults #6 '
expect_status 0 "$CETUNE" evaluate -c "$TMP/x/run/best.json" -c "$TMP/y/run/best.json" -d "$C" --format csv
expect_grep "$TMP/out" "^f1,lqf,\"$TMP/x/run/best.json\","
expect_grep "$TMP/out" "^f1,lqf,\"$TMP/y/run/best.json\","
# Long labels: [N] in the rows, a numbered legend under the table.
mkdir -p "$L/x/run" "$L/y/run"
cp "$TMP/x/run/best.json" "$L/x/run/"; cp "$TMP/y/run/best.json" "$L/y/run/"
expect_status 0 "$CETUNE" evaluate -c "$L/x/run/best.json" -c "$L/y/run/best.json" -d "$C"
expect_grep "$TMP/out" '^  \[1\] '
expect_grep "$TMP/out" "^\[2\] lqf $L/y/run/best.json$"

# Column headers are never cut; titles name the metric and the figure.
expect_grep "$TMP/out" ' cleaneval-development-set '
expect_grep "$TMP/out" '^Word sequence F1 per package'
expect_status 0 "$CETUNE" evaluate -x lqf -x accb -d "$C" --metric chars --show p,f1
expect_grep "$TMP/out" '^Character LCS precision per package'
expect_grep "$TMP/out" '^Character LCS F1 per package'
expect_status 0 "$CETUNE" evaluate -x lqf -d "$C" --metric lcstring
expect_grep "$TMP/out" '^lqf (defaults): [0-9]* documents in 2 packages; metric: Longest common substring'
expect_grep "$TMP/out" '^cleaneval-development-set '
finish
