# The pipeline extractor end to end on the demo corpus: a pipeline run is the
# same for one and two threads, its best.json is readable (only the parameters
# that matter), extract -c gives exactly what evaluate --extracts wrote, the
# HTML rendering works, an interrupted run resumes exactly, report plots it,
# and list describes it.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
D=$SRC/samples/demo
RUN="-p $SRC/params/pipeline.json -d $D --pop 12 --generations 4 --seed 5"

expect_status 0 "$CETUNE" evolve $RUN --threads 1 -o "$TMP/t1"
expect_grep "$TMP/out" '^pipeline on 36 documents: 4 generations'
# The final table fits 100 columns: turned, a row per active parameter.
wide=$(awk 'length > 100' "$TMP/out" | wc -l)
if [ "$wide" = 0 ]; then ok; else fail "$wide lines of evolve's output are wider than 100 columns"; fi
expect_grep "$TMP/out" '^rank  *1\*\{0,1\}  *2 '
expect_grep "$TMP/out" '^fitness  *0\.[0-9]\{4\}  *0\.'
if grep -q '^s2\.lqf\.t ' "$TMP/out" && ! grep -q '"s2.lqf.t"' "$TMP/t1/top.json"; then
  fail "the table shows s2.lqf.t, inactive in every row"; else ok; fi
expect_status 0 "$CETUNE" evolve $RUN --threads 2 -o "$TMP/t2"
same_run "$TMP/t1" "$TMP/t2" "between 1 and 2 threads"

# best.json names the stages it uses and nothing of the stages it does not.
best=$TMP/t1/best.json
s1=$(sed 's/.*"s1": "\([a-z]*\)".*/\1/' "$best")
expect_grep "$best" "\"s1.$s1\."
for x in lqf ccb accb tccb sw density mantratzis crunch; do
  if grep -q "\"s1\": \"$x\"" "$best" || ! grep -q "\"s1.$x\." "$best"; then ok
  else fail "best.json lists s1.$x.* although s1 is $s1"; fi
done
if grep -q '"s2": "none"' "$best" && grep -q '"s2\.' "$best"; then fail "s2 is none but s2.* listed"; else ok; fi

# extract -c best.json is what evaluate --extracts wrote, page by page.
expect_status 0 "$CETUNE" evaluate -c "$best" -d "$D" --extracts "$TMP/ex"
for pkg in cronaca dailyherald stadtblatt; do
  for page in "$D/$pkg"/*.html; do
    name=$(basename "$page" .html)
    "$CETUNE" extract -c "$best" "$page" >"$TMP/one.txt" 2>/dev/null
    if cmp -s "$TMP/one.txt" "$TMP/ex/$pkg/$name.txt"; then ok
    else fail "extract -c differs from evaluate --extracts for $pkg/$name"; fi
  done
done
page=$(ls "$D"/cronaca/*.html | head -1)
expect_status 0 "$CETUNE" extract -c "$best" --format html "$page"
expect_grep "$TMP/out" '<html'

# A three-stage pipeline with every post-processing step runs and scores.
expect_status 0 "$CETUNE" evaluate -x pipeline -P clean=true -P s2=lqf -P s3=tccb -P combine=vote \
  -P post.fill_gap=5 -P post.island=3 -P post.region=subtree -P post.headings=true -d "$D"
expect_grep "$TMP/out" 'macro average'

# Interrupted by SIGINT and resumed, a pipeline run ends as the run left alone.
LONG="-p $SRC/params/pipeline.json -d $D --pop 12 --generations 40 --patience 0 --seed 9 --threads 2"
expect_status 0 "$CETUNE" evolve $LONG -o "$TMP/ref"
signal_at INT "$TMP/int" 2 "$CETUNE" evolve $LONG -o "$TMP/int"
expect_status 0 "$CETUNE" evolve --resume "$TMP/int" --threads 1
same_run "$TMP/ref" "$TMP/int" "after SIGINT and --resume"

# report plots the run (active genes only) and list describes the pipeline.
expect_status 0 "$CETUNE" report "$TMP/t1"
if [ -s "$TMP/t1/report.md" ]; then ok; else fail "report.md missing"; fi
# report.md's table of the best is turned (a row per parameter active in one
# of them) instead of 76 mostly empty columns.
cols=$(awk '/^## Best individuals/ { on = 1 } on && /^\|/ { n = gsub(/\|/, "|"); if (n > m) m = n }
            on && /^## / && !/Best/ { on = 0 } END { print m }' "$TMP/t1/report.md")
if [ "$cols" -le 8 ]; then ok; else fail "report.md's best table has $((cols - 1)) columns"; fi
expect_grep "$TMP/t1/report.md" '^| parameter | 1\( (best.json)\)\{0,1\} | 2 |'
# distribution.png: a panel per parameter active in the final population,
# not one per described parameter.
panels=$(sed -n '/distribution.png/,/unset multiplot/p' "$TMP/t1/report.gp" | grep -c '^set title')
genes=$("$CETUNE" list pipeline | grep -c '^    [a-z]')
if [ "$panels" -gt 0 ] && [ "$panels" -lt "$genes" ]; then ok
else fail "distribution.png has $panels panels for $genes parameters"; fi
layout=$(sed -n 's/^set multiplot layout \([0-9]*\),\([0-9]*\).*/\1 \2/p' "$TMP/t1/report.gp" | tail -1)
if [ $(( ${layout% *} * ${layout#* } )) -lt $((panels + ${layout#* })) ]; then ok
else fail "distribution layout $layout for $panels panels"; fi
expect_status 0 "$CETUNE" list pipeline
expect_grep "$TMP/out" 's2.lqf.t'
expect_grep "$TMP/out" 'post.subtree_alpha'
finish
