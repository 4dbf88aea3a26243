# cetune evolve --pareto precision,recall (NSGA-II): pareto.csv is mutually
# non-dominated and holds a point at least as good as the defaults in both
# objectives, pareto/K.json are its rows as evaluate scores them, best.json
# is the front's highest F1, threads change nothing, an interrupted run
# resumes to the same files, report draws pareto.png, --force clears the
# front's files.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
DEMO=$SRC/samples/demo
RUN="-p $SRC/params/density.json -d $DEMO --sample-size 30 --pop 12 --generations 6 --seed 5 --pareto precision,recall"

expect_status 0 "$CETUNE" evolve $RUN --threads 2 -o "$TMP/p"
expect_grep "$TMP/out" '^Pareto search (NSGA-II) on precision, recall: [0-9]* non-dominated settings'
P=$TMP/p/pareto.csv
expect_grep "$P" '^point,c1,c2,empty,f1,precision,recall,words,violation$'
n=$(($(wc -l < "$P") - 1))
if [ "$n" -ge 3 ]; then ok; else fail "only $n points on the front"; fi
# No point dominates another.
if awk -F, 'NR > 1 { p[NR] = $6; r[NR] = $7 }
            END { for (a in p) for (b in p) if (a != b && p[a] >= p[b] && r[a] >= r[b] &&
                                               (p[a] > p[b] || r[a] > r[b])) exit 1 }' "$P"; then ok
else fail "pareto.csv has a dominated point"; fi
# A point at least as good as the defaults (c1=0.333 c2=4 empty=per_run) in both.
def=$(grep '^0,0.333,4,per_run,' "$TMP/p/individuals.csv" | cut -d, -f6,7)
if [ -n "$def" ] && awk -F, -v d="$def" 'BEGIN { split(d, x, ",") }
     NR > 1 && $6 >= x[1] && $7 >= x[2] { found = 1 } END { exit !found }' "$P"; then ok
else fail "no point of the front is at least the defaults' ($def)"; fi
# One configuration per point; evaluate gives its precision and recall.
if [ "$(ls "$TMP/p/pareto" | wc -l)" -eq "$n" ]; then ok; else fail "pareto/ does not hold $n configurations"; fi
"$CETUNE" evaluate -c "$TMP/p/pareto/2.json" -d "$DEMO" -s "$TMP/p/sample.txt" --per-doc --format csv 2>/dev/null |
  awk -F, 'NR > 1 { p += $6; r += $7; n++ } END { printf "%.6f,%.6f\n", p / n, r / n }' >"$TMP/pr"
if [ "$(cat "$TMP/pr")" = "$(sed -n 3p "$P" | cut -d, -f6,7)" ]; then ok
else fail "evaluate of pareto/2.json gives $(cat "$TMP/pr"), pareto.csv $(sed -n 3p "$P" | cut -d, -f6,7)"; fi
# best.json: the highest F1 on the front.
bestf=$(sed -n 's/.*"fitness": *\([0-9.]*\).*/\1/p' "$TMP/p/best.json")
maxf=$(awk -F, 'NR > 1 && $5 > m { m = $5 } END { print m }' "$P")
if awk -v a="$bestf" -v b="$maxf" 'BEGIN { exit !(a - b < 5e-7 && b - a < 5e-7) }'; then ok
else fail "best.json fitness $bestf, the front's highest F1 $maxf"; fi

# "best" means the same everywhere: in a Pareto run generations.csv's best is
# the front's highest F1 so far (best.json's), so it never goes down, its last
# value is best.json's fitness, and report.md says so.
if awk -F, 'NR > 2 && $3 + 0 < prev - 1e-12 { exit 1 } NR > 1 { prev = $3 + 0 }' "$TMP/p/generations.csv"; then ok
else fail "generations.csv's best goes down: $(cut -d, -f1,3 "$TMP/p/generations.csv" | tr '\n' ' ')"; fi
lastbest=$(tail -1 "$TMP/p/generations.csv" | cut -d, -f3)
if awk -v a="$bestf" -v b="$lastbest" 'BEGIN { exit !(a - b < 5e-7 && b - a < 5e-7) }'; then ok
else fail "generations.csv's last best $lastbest, best.json $bestf"; fi
expect_status 0 "$CETUNE" report "$TMP/p"
expect_grep "$TMP/p/report.md" "to $(printf '%.4f' "$bestf") (found in generation"

# One thread: the same files.
expect_status 0 "$CETUNE" evolve $RUN --threads 1 -o "$TMP/p1"
same_files "$TMP/p" "$TMP/p1" "between 2 and 1 threads" pareto.csv best.json individuals.csv pareto/1.json

# Interrupted and resumed: the same files as the run left alone.
LONG="$RUN --generations 40 --patience 0 --resolution 0 --threads 2"
expect_status 0 "$CETUNE" evolve $LONG -o "$TMP/ref"
signal_at INT "$TMP/int" 3 "$CETUNE" evolve $LONG -o "$TMP/int"
expect_status 0 "$CETUNE" evolve --resume "$TMP/int"
same_files "$TMP/ref" "$TMP/int" "after --resume" pareto.csv best.json individuals.csv top.json

# report: the front's plot, with the defaults marked.
if command -v gnuplot >/dev/null; then
  expect_status 0 "$CETUNE" report "$TMP/p"
  if [ -s "$TMP/p/pareto.png" ]; then ok; else fail "report drew no pareto.png"; fi
  expect_grep "$TMP/p/report.md" '!\[pareto\](pareto.png)'
  expect_grep "$TMP/p/report.gp" "title 'defaults'"
fi
# --force removes the front's files with the rest.
expect_status 0 "$CETUNE" evolve -p "$SRC/params/density.json" -d "$DEMO" --sample-size 10 --generations 1 --pop 4 -o "$TMP/p" --force
if [ ! -e "$TMP/p/pareto" ] && [ ! -e "$TMP/p/pareto.csv" ] && [ ! -e "$TMP/p/pareto.png" ]; then ok
else fail "--force left the Pareto files"; fi
finish
