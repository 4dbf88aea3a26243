#!/bin/bash
# scripts/compare-families.py: two families.csv files of
# scripts/generalisation.sh side by side, on the runs they share; written
# here, so the figures are known.
# usage: compare_families.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
. "$SRC/tests/cli_lib.sh"
py=$(command -v python3) || die "python3 not found"
cmp=$SRC/scripts/compare-families.py
head=family,corpus,pages,k,seed,test_pages,start_f1,tuned_f1,gain,train_gain,evaluations,seconds,article_f1,search_gain,cv_gains,decision
{
  echo "$head"
  echo "a,c1,9,5,1,4,0.9,0.91,0.010000,0,1,1,0.9,0.01,0.01,tuned"
  echo "a,c1,9,5,2,4,0.9,0.90,0.000000,0,1,1,0.9,0.00,0.00,start"
  echo "b,c2,9,5,1,4,0.9,0.89,-0.010000,0,1,1,0.9,-0.01,0.01,tuned"
  echo "only,c2,9,5,1,4,0.9,0.95,0.050000,0,1,1,0.9,0.05,0.01,tuned"
} >"$TMP/before.csv"
{
  echo "$head"
  echo "a,c1,9,5,1,4,0.9,0.93,0.030000,0,1,1,0.9,0.03,0.01,tuned"
  echo "a,c1,9,5,2,4,0.9,0.90,0.000000,0,1,1,0.9,0.00,0.00,start"
  echo "b,c2,9,5,1,4,0.9,0.90,0.000000,0,1,1,0.9,-0.01,0.01,start+site"
} >"$TMP/after.csv"
expect_status 0 "$py" "$cmp" "$TMP/before.csv" "$TMP/after.csv"
# The run in one file only does not count: 3 runs, medians 0 and 0, means
# 0 and +0.01, one loss of more than 0.005 before, none after.
expect_grep "$TMP/out" "^| before, \*\*all\*\* | 3 | +0.0000 | +0.0000 | -0.0100 | 1 | 1 |$"
expect_grep "$TMP/out" "^| after, \*\*all\*\* | 3 | +0.0000 | +0.0100 | +0.0000 | 0 | 0 |$"
expect_grep "$TMP/out" "^| after, c1 | 2 | +0.0150 | +0.0150 | +0.0000 | 0 | 0 |$"
expect_grep "$TMP/out" "^3 runs in both; 2 better, 0 worse$"
expect_grep "$TMP/out" "^  b K=5 seed 1: -0.0100 -> +0.0000 (+0.0100), tuned -> start+site$"
[ "$(grep -c "^  a K=5 seed 2" "$TMP/out")" = 0 ] && ok || fail "an unchanged run is listed as changed"
# Swapped, the same runs got worse.
expect_status 0 "$py" "$cmp" "$TMP/after.csv" "$TMP/before.csv"
expect_grep "$TMP/out" "^3 runs in both; 0 better, 2 worse$"
# Bad input: a missing file, a file of another kind, nothing shared.
expect_status 1 "$py" "$cmp" "$TMP/none.csv" "$TMP/after.csv"
expect_grep "$TMP/err" "none.csv: No such file"
printf 'x,y\n1,2\n' >"$TMP/other.csv"
expect_status 1 "$py" "$cmp" "$TMP/other.csv" "$TMP/after.csv"
expect_grep "$TMP/err" "other.csv: not a families.csv"
{ echo "$head"; echo "z,c1,9,5,1,4,0.9,0.91,0.010000,0,1,1,0.9,0.01,0.01,tuned"; } >"$TMP/z.csv"
expect_status 1 "$py" "$cmp" "$TMP/z.csv" "$TMP/after.csv"
expect_grep "$TMP/err" "share no run"
# Runs from several starts (start_seed, generalisation.sh --start-seed 1,2)
# pair by start seed too; against a file without the column, a file with
# two starts of one run is refused, one with a single start pairs as before.
{
  echo "$head,start_seed"
  echo "a,c1,9,5,1,4,0.9,0.91,0.010000,0,1,1,0.9,0.01,0.01,tuned,1"
  echo "a,c1,9,5,1,4,0.9,0.92,0.020000,0,1,1,0.9,0.02,0.01,tuned,2"
} >"$TMP/s12.csv"
{
  echo "$head,start_seed"
  echo "a,c1,9,5,1,4,0.9,0.91,0.010000,0,1,1,0.9,0.01,0.01,tuned,1"
  echo "a,c1,9,5,1,4,0.9,0.95,0.050000,0,1,1,0.9,0.05,0.01,tuned,2"
} >"$TMP/t12.csv"
expect_status 0 "$py" "$cmp" "$TMP/s12.csv" "$TMP/t12.csv"
expect_grep "$TMP/out" "^2 runs in both; 1 better, 0 worse$"
expect_grep "$TMP/out" "^  a K=5 seed 1 start seed 2: +0.0200 -> +0.0500 (+0.0300), tuned -> tuned$"
expect_status 1 "$py" "$cmp" "$TMP/s12.csv" "$TMP/after.csv"
expect_grep "$TMP/err" "s12.csv: a K=5 seed 1 is there from several starts"
grep -v ',2$' "$TMP/s12.csv" >"$TMP/s1.csv"
expect_status 0 "$py" "$cmp" "$TMP/s1.csv" "$TMP/after.csv"
expect_grep "$TMP/out" "^  a K=5 seed 1: +0.0100 -> +0.0300 (+0.0200), tuned -> tuned$"
finish
