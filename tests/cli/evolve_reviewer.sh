# The acceptance checks of a tuning run on the shared corpora (skipped when
# ../shared/corpora is absent):
# - lqf on portals: --threads 1 and --threads 2 give identical best.json and
#   individuals.csv;
# - density on big5, interrupted with SIGINT and resumed, gives the best.json
#   of the run left alone;
# - on that run's sample.txt, the tuned density beats its paper defaults by
#   at least 0.05 mean F1, scored independently by cetune evaluate.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
need_corpora portals big5

LQF="-p $SRC/params/lqf.json -d $C/portals --sample-size 40 --pop 12 --generations 8 --patience 8 --seed 7"
expect_status 0 "$CETUNE" evolve $LQF --threads 1 -o "$TMP/l1"
expect_status 0 "$CETUNE" evolve $LQF --threads 2 -o "$TMP/l2"
for f in best.json individuals.csv; do
  if cmp -s "$TMP/l1/$f" "$TMP/l2/$f"; then ok; else fail "lqf $f differs between 1 and 2 threads"; fi
done

DEN="-p $SRC/params/density.json -d $C/big5 --sample-size 60 --pop 16 --generations 12 --seed 3"
expect_status 0 "$CETUNE" evolve $DEN -o "$TMP/alone"
interrupted=0
for at in 4 2 1 0 -1; do
  rm -rf "$TMP/cut"
  "$CETUNE" evolve $DEN -o "$TMP/cut" >/dev/null 2>"$TMP/cut.err" &
  pid=$!
  while kill -0 $pid 2>/dev/null; do
    g=$(generation "$TMP/cut")
    if [ -n "$g" ] && [ "$g" -ge "$at" ]; then kill -INT $pid; break; fi
    sleep 0.01
  done
  wait $pid
  if [ $? -eq 130 ]; then interrupted=1; break; fi
done
if [ $interrupted -eq 1 ]; then ok; else fail "could not interrupt the density run"; fi
expect_status 0 "$CETUNE" evolve --resume "$TMP/cut"
same_run "$TMP/alone" "$TMP/cut" "after SIGINT and --resume (density)"

# Mean per-document F1 of a configuration on the run's sample.
mean_f1() {
  "$CETUNE" evaluate "$@" -d "$C/big5" -s "$TMP/alone/sample.txt" --per-doc --format csv 2>/dev/null |
    awk -F, 'NR > 1 { s += $8; n++ } END { printf "%.6f", s / n }'
}
tuned=$(mean_f1 -c "$TMP/alone/best.json")
paper=$(mean_f1 -x density -P c1=0.333 -P c2=4)
echo "density on the sample: tuned $tuned, paper defaults $paper"
if awk -v t="$tuned" -v p="$paper" 'BEGIN { exit !(t - p >= 0.05) }'; then ok
else fail "tuned density $tuned does not beat the defaults $paper by 0.05"; fi
finish
