# cetune report: report.md (settings, best individuals, validation gap,
# plots), PNG plots drawn by gnuplot when it is installed, and the same
# report without gnuplot on PATH (no plots, a one-line notice, exit 0).
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
case $CETUNE in /*) ;; *) CETUNE=$PWD/$CETUNE ;; esac
G=$SRC/tests/data/ga
DEMO=$SRC/samples/demo

is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; }

# sw (three parameters, three pairs) on the demo corpus, validated on the GA corpus.
expect_status 0 "$CETUNE" evolve -p "$SRC/params/sw.json" -d "$DEMO" --pop 8 --generations 4 \
  --seed 3 --validate "$G/corpus" -o "$TMP/sw"
expect_status 0 "$CETUNE" report "$TMP/sw"
R=$TMP/sw/report.md
expect_grep "$TMP/out" "^$TMP/sw/report.md$"
expect_grep "$R" '^# Run sw: sw$'
expect_grep "$R" '^## Settings$'
expect_grep "$R" '^| command | `cetune evolve -p .*params/sw.json'
expect_grep "$R" '^| seed | 3 |$'
expect_grep "$R" '^| status | finished |$'
expect_grep "$R" '^## Best individuals$'
expect_grep "$R" '^| rank | t_en | t_de | t_it | fitness | precision | recall | generation |$'
expect_grep "$R" '^| 1\( (best.json)\)\{0,1\} | [0-9.]* | [0-9.]* | [0-9.]* | 0\.[0-9]\{4\} |'
# best.json's row is named, once in the table of the best and once in the validation's.
if [ "$(sed -n '/^## Best individuals/,/^## Validation/p' "$R" | grep -c '^| [0-9a-z]* (best.json) |')" -eq 1 ]; then ok
else fail "report.md's table of the best does not name best.json's row once"; fi
if [ "$(sed -n '/^## Validation/,/^## [^V]/p' "$R" | grep -c '^| [0-9a-z]* (best.json) |')" -eq 1 ]; then ok
else fail "report.md's validation table does not name best.json's row once"; fi
expect_grep "$R" '^Training against validation fitness: best.json ('
expect_grep "$R" '^| defaults\( (best.json)\)\{0,1\} | 0.3 | 0.25 | 0.4 | 0\.[0-9]\{4\} |'
expect_grep "$R" '^## Validation$'
expect_grep "$R" '^| defaults\( (best.json)\)\{0,1\} | 0.3 | 0.25 | 0.4 | '
# The best row of the table is top.json's first entry.
best_t_en=$(grep -o '"t_en": *[0-9.e-]*' "$TMP/sw/top.json" | head -1 | sed 's/.*: *//')
expect_grep "$R" "^| 1\\( (best.json)\\)\\{0,1\\} | $best_t_en |"
for f in report.gp report-generations.dat report-explored.dat report-population.dat; do
  if [ -s "$TMP/sw/$f" ]; then ok; else fail "missing $f"; fi
done
pngs="convergence.png explored-t_en-t_de.png explored-t_en-t_it.png explored-t_de-t_it.png distribution.png"
if command -v gnuplot >/dev/null; then
  for p in $pngs; do
    if [ -s "$TMP/sw/$p" ] && is_png "$TMP/sw/$p"; then ok; else fail "$p missing or not a PNG"; fi
    expect_grep "$R" "](${p})$"
  done
  if grep -q 'Not drawn' "$R"; then fail "report.md says the plots were not drawn"; else ok; fi
else
  echo "gnuplot is not installed: checking the report without plots only" >&2
fi
if ls "$TMP/sw" | grep -q -i 'svg\|tmp'; then fail "unexpected files: $(ls "$TMP/sw")"; else ok; fi

# Without gnuplot on PATH: one clear line, report.md without images, exit 0.
PATH=/nonexistent expect_status 0 "$CETUNE" report "$TMP/sw"
expect_grep "$TMP/err" '^cetune: gnuplot not found on PATH'
if [ "$(wc -l < "$TMP/err")" -eq 1 ]; then ok; else fail "more than one line on stderr"; sed 's/^/  | /' "$TMP/err" >&2; fi
expect_grep "$R" '^Not drawn: gnuplot was not found on PATH'
expect_grep "$R" '^## Best individuals$'
expect_grep "$R" '^## Validation$'
if grep -q '!\[' "$R"; then fail "report.md links images that were not drawn"; else ok; fi
for p in $pngs; do
  if [ -e "$TMP/sw/$p" ]; then fail "stale $p left"; else ok; fi
done
if [ -s "$TMP/sw/report.gp" ]; then ok; else fail "report.gp not written without gnuplot"; fi

# One parameter: it against fitness; no validation section without --validate.
expect_status 0 "$CETUNE" evolve -p "$G/lqf.json" -d "$G/corpus" --pop 8 --generations 3 --seed 7 \
  -o "$TMP/lqf"
expect_status 0 "$CETUNE" report "$TMP/lqf/"
expect_grep "$TMP/lqf/report.md" '^| 1\( (best.json)\)\{0,1\} | 0\.[0-9]* | 0\.[0-9]\{4\} |'
if grep -q '^## Validation' "$TMP/lqf/report.md"; then fail "a validation section without validation"; else ok; fi
if command -v gnuplot >/dev/null; then
  for p in convergence.png explored.png distribution.png; do
    if is_png "$TMP/lqf/$p"; then ok; else fail "lqf: $p missing or not a PNG"; fi
  done
fi

# Errors.
expect_status 1 "$CETUNE" report "$TMP/nowhere"
expect_status 1 "$CETUNE" report "$SRC/tests"
expect_grep "$TMP/err" 'not a run directory'
expect_status 2 "$CETUNE" report
expect_status 2 "$CETUNE" report "$TMP/sw" "$TMP/lqf"

# convergence.png: its title counts the documents fitness read (all of
# the sample: cross-validation holds pages out only inside its folds), and
# its key sits above the panel, where it covers no curve (inside, at the
# bottom, it hid the worst one).
expect_status 0 "$CETUNE" evolve -p "$SRC/params/lqf.json" -d "$DEMO" --sample-size 30 \
  --generations 3 --seed 3 -q -o "$TMP/ho"
expect_status 0 "$CETUNE" report "$TMP/ho"
expect_grep "$TMP/ho/report.gp" 'fitness per generation (training sample of 30 documents)'
expect_grep "$TMP/ho/report.gp" '^set key horizontal at screen 0.53, screen 0.935'
if sed -n '/convergence.png/,/unset multiplot/p' "$TMP/ho/report.gp" | grep -q '^set key .*\(bottom\|right\|left\)'; then fail "a key inside the convergence panels"; else ok; fi
finish
