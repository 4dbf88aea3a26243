# cetune evolve --validate: validation.csv (top.json's rows and the defaults,
# values in [0, 1], figures that evaluate reproduces), the printed gaps, the
# corpora kept in run.json and the checkpoint, validation after --resume,
# and the errors.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
G=$SRC/tests/data/ga
DEMO=$SRC/samples/demo
RUN="-p $G/lqf.json -d $G/corpus --pop 8 --generations 5 --seed 7 --threads 2"

expect_status 0 "$CETUNE" evolve $RUN --validate "$DEMO" --validate "$G/corpus" -o "$TMP/v"
cp "$TMP/out" "$TMP/v.out"
V=$TMP/v/validation.csv
if [ -s "$V" ]; then ok; else fail "no validation.csv"; fi
expect_grep "$V" '^rank,t,train_fitness,valid_fitness,valid_f1,valid_macro_f1,valid_precision,valid_recall,gap,best_json$'
# Exactly one row is best.json's (best_json 1): its t is best.json's, and
# the printed figures are that row's, named (issue: rank 1's were shown).
if [ "$(awk -F, 'NR > 1 && $10 == 1' "$V" | wc -l)" -eq 1 ]; then ok; else fail "validation.csv marks $(awk -F, 'NR > 1 && $10 == 1' "$V" | wc -l) rows as best.json"; fi
best_t=$(grep -o '"t": *[0-9.e-]*' "$TMP/v/best.json" | sed 's/.*: *//')
if [ "$(awk -F, 'NR > 1 && $10 == 1 { print $2 }' "$V")" = "$best_t" ]; then ok
else fail "validation.csv's best_json row is not best.json (t $best_t)"; fi
best_row=$(awk -F, 'NR > 1 && $10 == 1 { print $1 }' "$V")
case $best_row in defaults) want="best.json is defaults (\*)" ;; *) want="best.json is rank $best_row (\*)" ;; esac
expect_grep "$TMP/out" "^$want\$"
expect_grep "$TMP/out" "^ *$best_row\* "
gap=$(awk -F, 'NR > 1 && $10 == 1 { printf "%+.4f", $9 }' "$V")
expect_grep "$TMP/out" "^gap (training - validation fitness): best.json $gap[,;]"
# One row per top.json entry, in its order, then the defaults.
ntop=$(grep -o '"extractor"' "$TMP/v/top.json" | wc -l)
if [ "$(wc -l < "$V")" -eq $((ntop + 2)) ]; then ok; else fail "validation.csv has $(wc -l < "$V") lines, expected $((ntop + 2))"; fi
if [ "$(cut -d, -f1 "$V" | tail -n +2 | tr '\n' ' ')" = "$(seq -s ' ' 1 "$ntop") defaults " ]; then ok
else fail "validation.csv ranks: $(cut -d, -f1 "$V" | tr '\n' ' ')"; fi
top_t=$(grep -o '"t": *[0-9.e-]*' "$TMP/v/top.json" | sed 's/.*: *//' | tr '\n' ' ')
if [ "$(cut -d, -f2 "$V" | sed -n "2,$((ntop + 1))p" | tr '\n' ' ')" = "$top_t" ]; then ok
else fail "validation.csv parameters differ from top.json's ($top_t)"; fi
expect_grep "$V" '^defaults,0.25,0.561501,'
# Every figure in [0, 1]; the gap is training minus validation fitness,
# which is F1 here.
if awk -F, 'NR > 1 { for (i = 3; i <= 8; i++) if ($i == "" || $i < 0 || $i > 1) exit 1
                      if (($3 - $4 - $9) > 1e-5 || ($4 - $3 + $9) > 1e-5 || $4 != $5) exit 1 }' "$V"; then ok
else fail "validation.csv values out of [0, 1] or gap wrong"; sed 's/^/  | /' "$V" >&2; fi
# The validation corpora are whole: 36 demo pages and the 8 training pages.
expect_grep "$TMP/v.out" 'validation on 44 documents in 5 packages (8 of them in the training sample)'
expect_grep "$TMP/v.out" '^gap (training - validation fitness): best.json [+-]0\.[0-9]*'
expect_grep "$TMP/v.out" '^ *defaults\*\{0,1\} *0.5615 '
# The defaults' macro F1 is what evaluate prints for them on the same corpora.
"$CETUNE" evaluate -x lqf -d "$DEMO" -d "$G/corpus" --format csv >"$TMP/eval.csv" 2>/dev/null
macro=$(awk -F, '$1 == "macro" { print $5 }' "$TMP/eval.csv")
if [ -n "$macro" ] && grep -q "^defaults,0.25,[^,]*,[^,]*,[^,]*,$macro," "$V"; then ok
else fail "defaults' valid_macro_f1 differs from evaluate's macro F1 $macro"; fi
# run.json and the checkpoint keep the corpora, as absolute paths.
for f in run.json checkpoint.json; do
  if tr -d '\n\t ' < "$TMP/v/$f" | grep -q "\"validate\":\[\"$(cd "$DEMO" && pwd)\",\"$(cd "$G/corpus" && pwd)\"\]"; then ok
  else fail "$f does not list the validation corpora"; fi
done

# With --objective the gap compares the objective on both sides: precision
# here, not precision against F1.
expect_status 0 "$CETUNE" evolve $RUN --objective precision --validate "$DEMO" -o "$TMP/vp"
expect_grep "$TMP/out" '^training and validation fitness: precision$'
if awk -F, 'NR > 1 && $1 != "defaults" { if ($4 != $7 || ($3 - $4 - $9) > 1e-5 || ($4 - $3 + $9) > 1e-5) exit 1 }
            NR > 1 { n++ } END { exit n < 2 }' "$TMP/vp/validation.csv"; then ok
else fail "--objective precision: valid_fitness is not the validation precision or the gap is not against it"
  sed 's/^/  | /' "$TMP/vp/validation.csv" >&2; fi
best_gap=$(awk -F, 'NR > 1 && $10 == 1 { printf "%+.4f", $9 }' "$TMP/vp/validation.csv")
expect_grep "$TMP/out" "^gap (training - validation fitness): best.json $best_gap[,;]"

# A finished run without validation.csv (interrupted validation) is validated by --resume.
cp "$V" "$TMP/v.csv"
rm "$V"
expect_status 0 "$CETUNE" evolve --resume "$TMP/v"
expect_grep "$TMP/err" 'has finished already'
if cmp -s "$TMP/v.csv" "$V"; then ok; else fail "validation.csv differs after --resume"; fi

# An interrupted run keeps --validate through --resume and validates at its end.
"$CETUNE" evolve -p "$G/lqf.json" -d "$G/corpus" --pop 20 --generations 100 --patience 0 \
  --resolution 0 --seed 11 --validate "$DEMO" -o "$TMP/r" >/dev/null 2>"$TMP/err1" &
pid=$!
for _ in $(seq 600); do
  grep -q '"generation":[[:space:]]*[1-9]' "$TMP/r/checkpoint.json" 2>/dev/null && break
  sleep 0.05
done
kill -INT $pid
wait $pid
status=$?
if [ $status -eq 130 ]; then ok; else fail "SIGINT: exit $status, expected 130"; fi
if [ -e "$TMP/r/validation.csv" ]; then fail "validation.csv written by an interrupted run"; else ok; fi
expect_status 0 "$CETUNE" evolve --resume "$TMP/r"
expect_grep "$TMP/out" '^validation on 36 documents in 3 packages:'
if [ "$(wc -l < "$TMP/r/validation.csv")" -ge 3 ]; then ok; else fail "resumed run: validation.csv too short"; fi

# Errors: a missing corpus fails before evolving; --resume keeps the run's own.
expect_status 1 "$CETUNE" evolve $RUN --validate "$TMP/nowhere" -o "$TMP/bad"
expect_grep "$TMP/err" "^cetune: --validate: $TMP/nowhere"
if [ -e "$TMP/bad" ]; then fail "a run directory was made for a bad --validate"; else ok; fi
expect_status 2 "$CETUNE" evolve --resume "$TMP/v" --validate "$DEMO"
finish
