# cetune evolve --objective and --constraint: best.json's fitness is the
# objective's value as evaluate measures it (macro-f1 on an unbalanced
# sample), a precision constraint holds on the best configuration scored
# independently, an impossible one is reported, the goal is in run.json and
# the checkpoint, and bad goals are usage errors.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
DEMO=$SRC/samples/demo
RUN="-p $SRC/params/density.json -d $DEMO --pop 10 --generations 4 --seed 3 --threads 2"

# An unbalanced sample (6, 3 and 1 documents), so the macro average differs from the mean.
{ ls "$DEMO/cronaca" | sed -n 's/\.html$//p' | head -6 | sed 's|^|cronaca/|'
  ls "$DEMO/dailyherald" | sed -n 's/\.html$//p' | head -3 | sed 's|^|dailyherald/|'
  ls "$DEMO/stadtblatt" | sed -n 's/\.html$//p' | head -1 | sed 's|^|stadtblatt/|'; } >"$TMP/s.txt"

# macro-f1: best.json's fitness is evaluate's macro F1 on the sample.
expect_status 0 "$CETUNE" evolve $RUN -s "$TMP/s.txt" --objective macro-f1 -o "$TMP/m"
expect_grep "$TMP/out" '^objective: macro-f1'
fit=$(sed -n 's/.*"fitness": *\([0-9.e-]*\).*/\1/p' "$TMP/m/best.json")
"$CETUNE" evaluate -c "$TMP/m/best.json" -d "$DEMO" -s "$TMP/s.txt" --format csv >"$TMP/e.csv" 2>/dev/null
macro=$(awk -F, '$1 == "macro" { print $5 }' "$TMP/e.csv")
mean=$("$CETUNE" evaluate -c "$TMP/m/best.json" -d "$DEMO" -s "$TMP/s.txt" --per-doc --format csv 2>/dev/null |
       awk -F, 'NR > 1 { s += $8; n++ } END { printf "%.6f", s / n }')
if awk -v a="$fit" -v b="$macro" 'BEGIN { exit !(a - b < 1e-6 && b - a < 1e-6) }'; then ok
else fail "best.json fitness $fit, evaluate's macro F1 $macro"; fi
if awk -v a="$macro" -v b="$mean" 'BEGIN { exit !(a - b > 1e-4 || b - a > 1e-4) }'; then ok
else fail "the sample does not tell macro ($macro) from mean ($mean) F1"; fi
expect_grep "$TMP/m/individuals.csv" '^generation,c1,c2,empty,fitness,precision,recall,f1,words,violation,docs_evaluated,raced_out$'
for f in run.json checkpoint.json; do
  if tr -d '\n\t ' < "$TMP/m/$f" | grep -q '"objective":"macro-f1","constraint":\[\],"pareto":\[\]'; then ok
  else fail "$f does not record the objective"; fi
done

# precision>=0.95: the best configuration's precision, scored by evaluate, holds.
expect_status 0 "$CETUNE" evolve $RUN --sample-size 30 --constraint 'precision>=0.95' -o "$TMP/c"
expect_grep "$TMP/out" '^constraints: precision>=0.95; [0-9]* of [0-9]* evaluated settings feasible'
p=$("$CETUNE" evaluate -c "$TMP/c/best.json" -d "$DEMO" -s "$TMP/c/sample.txt" --per-doc --format csv 2>/dev/null |
    awk -F, 'NR > 1 { s += $6; n++ } END { printf "%.6f", s / n }')
if awk -v p="$p" 'BEGIN { exit !(p >= 0.95) }'; then ok; else fail "best precision $p < 0.95"; fi
# Some evaluated settings break the constraint; top.json's are all feasible.
if awk -F, 'NR > 1 && $(NF-2) > 0 { n++ } END { exit !(n > 0) }' "$TMP/c/individuals.csv"; then ok
else fail "no infeasible setting in individuals.csv: the constraint was not tested"; fi
if ! grep -q '"violation": 0*[1-9]\|"violation": 0\.0*[1-9]' "$TMP/c/top.json"; then ok
else fail "top.json has an infeasible setting while feasible ones exist"; fi

# macro-precision: the constraint holds on evaluate's macro average of the (unbalanced) sample.
expect_status 0 "$CETUNE" evolve $RUN -s "$TMP/s.txt" --constraint 'macro-precision>=0.93' -o "$TMP/mp"
expect_grep "$TMP/out" '^constraints: macro-precision>=0.93; [0-9]* of [0-9]* evaluated settings feasible'
mp=$("$CETUNE" evaluate -c "$TMP/mp/best.json" -d "$DEMO" -s "$TMP/s.txt" --format csv 2>/dev/null |
     awk -F, '$1 == "macro" { print $3 }')
if awk -v p="$mp" 'BEGIN { exit !(p != "" && p >= 0.93) }'; then ok; else fail "macro precision $mp < 0.93"; fi

# Impossible: said so, and best.json is the closest to feasible.
expect_status 0 "$CETUNE" evolve $RUN --sample-size 30 --constraint 'precision>=0.999' --constraint 'words<=5' -o "$TMP/x"
expect_grep "$TMP/out" 'NO FEASIBLE SETTING FOUND among [0-9]* evaluated'
if [ -s "$TMP/x/best.json" ]; then ok; else fail "no best.json without a feasible setting"; fi

# Same seed, other thread count: the same results.
expect_status 0 "$CETUNE" evolve $RUN --sample-size 30 --constraint 'precision>=0.95' --threads 1 -o "$TMP/c1"
same_files "$TMP/c" "$TMP/c1" "between 2 and 1 threads" best.json individuals.csv top.json
# report names the objective and the constraints.
expect_status 0 "$CETUNE" report "$TMP/m"
expect_grep "$TMP/m/report.md" 'Fitness is the objective `macro-f1`'
expect_status 0 "$CETUNE" report "$TMP/c"
expect_grep "$TMP/c/report.md" 'Constraints (feasible settings rank first): `precision>=0.95`; [0-9]* of [0-9]* evaluated settings are feasible'

# Bad goals are usage errors naming the problem.
expect_status 2 "$CETUNE" evolve $RUN --objective F1 -o "$TMP/b"
expect_grep "$TMP/err" 'unknown objective .F1. (allowed: f1, precision, recall, fbeta:B, macro-f1, macro-precision, macro-recall, lcb-f1)'
expect_status 2 "$CETUNE" evolve $RUN --constraint 'precision>0.9' -o "$TMP/b"
expect_grep "$TMP/err" 'MEASURE>=BOUND or MEASURE<=BOUND'
expect_status 2 "$CETUNE" evolve $RUN --constraint 'recall>=2' -o "$TMP/b"
expect_status 2 "$CETUNE" evolve $RUN --objective fbeta:0 -o "$TMP/b"
expect_status 2 "$CETUNE" evolve $RUN --pareto precision -o "$TMP/b"
expect_status 2 "$CETUNE" evolve $RUN --pareto precision,recall --objective recall -o "$TMP/b"
# --shrink: the fitness is F1 less W/n times the distance to the start, so
# never above F1, below it for settings away from the start, equal at the
# start (the defaults here), and W/n lower for the seed that flips the enum
# (distance 1); the weight is in run.json and the checkpoint.
expect_status 0 "$CETUNE" evolve $RUN -s "$TMP/s.txt" --shrink 2 -o "$TMP/sh"
awk -F, -v n=10 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  { d = $col["f1"] - $col["fitness"]; if (d < -1e-9) bad++; if (d > 1e-6) away++
    if ($col["c1"] == 0.333 && $col["c2"] == 4 && $col["empty"] == "per_run" && (d > 1e-9 || d < -1e-9)) start++
    if ($col["c1"] == 0.333 && $col["c2"] == 4 && $col["empty"] == "each_tag") flip = d }
  END { exit !(bad == 0 && away > 0 && start == 0 && flip > 2 / n - 1e-6 && flip < 2 / n + 1e-6) }' \
  "$TMP/sh/individuals.csv" && ok ||
  fail "--shrink 2: fitness not F1 less a penalty that is 0 at the start"
for f in run.json checkpoint.json; do
  if tr -d '\n\t ' < "$TMP/sh/$f" | grep -q '"shrink":2'; then ok; else fail "$f does not record --shrink"; fi
done
expect_status 2 "$CETUNE" evolve $RUN -s "$TMP/s.txt" --shrink -1.5 -o "$TMP/sh2"
expect_status 2 "$CETUNE" evolve $RUN -s "$TMP/s.txt" --shrink 1 --race -o "$TMP/sh3"
# --shrink's start is the first --seed-config (its fitness is its F1), and
# a run interrupted and resumed ends as the run that went through.
printf '{"extractor": "density", "params": {"c1": 0.5, "c2": 6, "empty": "each_tag"}}\n' >"$TMP/start.json"
SH="$RUN -s $TMP/s.txt --shrink 2 --seed-config $TMP/start.json --generations 40 --patience 0"
expect_status 0 "$CETUNE" evolve $SH -o "$TMP/ref"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $col["c1"] == 0.5 && $col["c2"] == 6 && $col["empty"] == "each_tag" {
    seen++; d = $col["f1"] - $col["fitness"]; if (d > 1e-9 || d < -1e-9) bad++ }
  $col["c1"] == 0.333 && $col["c2"] == 4 && $col["empty"] == "per_run" { def = $col["f1"] - $col["fitness"] }
  END { exit !(seen > 0 && bad == 0 && def > 0) }' "$TMP/ref/individuals.csv" && ok ||
  fail "--shrink with --seed-config: the seed configuration is not the start"
signal_at INT "$TMP/int" 3 "$CETUNE" evolve $SH -o "$TMP/int"
expect_status 0 "$CETUNE" evolve --resume "$TMP/int"
same_run "$TMP/ref" "$TMP/int" "after --resume of a --shrink run"
# The default weight: 0.02 from a --seed-config with the guard of site
# rules, 0.03 without it (--no-guard, --no-site), 0 from the defaults, and 0
# with another objective or racing (their checks would refuse a weight).
shrink_of() { tr -d '\n\t ' <"$1/run.json" | sed -n 's/.*"shrink":\([0-9.e-]*\).*/\1/p'; }
D="$RUN -s $TMP/s.txt --generations 2 --choose search"
expect_status 0 "$CETUNE" evolve $D --seed-config "$TMP/start.json" -o "$TMP/d1"
expect_status 0 "$CETUNE" evolve $D -o "$TMP/d2"
expect_status 0 "$CETUNE" evolve $D --seed-config "$TMP/start.json" --race -o "$TMP/d3"
expect_status 0 "$CETUNE" evolve $D --seed-config "$TMP/start.json" --objective precision -o "$TMP/d4"
expect_status 0 "$CETUNE" evolve $D --seed-config "$TMP/start.json" --no-guard -o "$TMP/d7"
expect_status 0 "$CETUNE" evolve $D --seed-config "$TMP/start.json" --no-site -o "$TMP/d8"
got="$(shrink_of "$TMP/d1") $(shrink_of "$TMP/d2") $(shrink_of "$TMP/d3") $(shrink_of "$TMP/d4")"
got="$got $(shrink_of "$TMP/d7") $(shrink_of "$TMP/d8")"
[ "$got" = "0.02 0 0 0 0.03 0.03" ] && ok || fail "default --shrink: $got, not 0.02 0 0 0 0.03 0.03"
# The estimate's sentence names the weight of a regularised search, and only of one.
C="$RUN -s $TMP/s.txt --generations 2 --folds 2"
expect_status 0 "$CETUNE" evolve $C --seed-config "$TMP/start.json" -o "$TMP/d5"
expect_grep "$TMP/d5/run.json" 'cross-validation of a search held near the start by --shrink 0.02, on 10 pages'
expect_grep "$TMP/out" 'held near the start by --shrink 0.02,'
expect_status 0 "$CETUNE" evolve $C -o "$TMP/d6"
grep -q 'from 2-fold cross-validation on 10 pages' "$TMP/d6/run.json" && ! grep -q 'held near' "$TMP/d6/run.json" &&
  ok || fail "the sentence of a run without --shrink names a weight"
finish
