# A checkpoint is untrusted input (edited by a person, cut by a crash):
# --resume refuses a bad one with a message naming the file and what is
# wrong, and never crashes (fuzz/fuzz_checkpoint.c tries many more).
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
G=$SRC/tests/data/ga
expect_status 0 "$CETUNE" evolve -p "$G/lqf.json" -d "$G/corpus" --pop 4 --generations 3 --seed 2 -o "$TMP/run"
C=$TMP/run/checkpoint.json
cp "$C" "$TMP/good.json"
sed 's/"stop":\t"generations"/"stop":\t"none"/' "$TMP/good.json" > "$C"
expect_status 0 "$CETUNE" evolve --resume "$TMP/run"

check() { # check SED-EXPRESSION MESSAGE
  sed "$1" "$TMP/good.json" > "$C"
  expect_status 1 "$CETUNE" evolve --resume "$TMP/run"
  expect_grep "$TMP/err" "checkpoint.json:[0-9]*:[0-9]*: checkpoint: $2"
}
check 's/"select":\t"tournament"/"select":\t"roulette"/' 'unknown select .roulette.'
check 's/"crossover":\t"uniform"/"crossover":\t"two-point"/' 'unknown crossover .two-point.'
check 's/"pop":\t4/"pop":\t-3/' '"pop" must be a whole number from 2 to 1000000'
check 's/"top":\t5/"top":\t2.5/' '"top" must be a whole number'
check 's/"stop":\t"generations"/"stop":\t"bored"/' "unknown stop reason 'bored'"
check 's/^  \[0, /  [99, /' 'an archive row is out of range'
check '0,/^  \[0, /s/, [0-9.e-]*\]/, 9]/' 'an archive row is out of range'
check 's/"started":\t"[^"]*"/"started":\t"the first Monday of a very long month, early in the morning"/' \
  '"started" must be a date and time'
check 's/"top":\t5,/"top":\t5, "folds": 2, "fold_args": ["-p", 7],/' '"fold_args" holds option strings'
check 's/"dirs":\t\[/"dirs":\t[3, /' '"dirs" holds directories'
check 's/"name":\t"ga"/"name":\t"annealing"/' "unknown search strategy 'annealing'"
check 's/"strategy":\t{/"strategy":\t"ga", "then": {/' '"strategy" must be an object'
# A checkpoint from before search strategies (no "strategy") resumes as the GA.
grep -q '"strategy":' "$TMP/good.json" || die "the checkpoint names no strategy"
sed 's/"stop":\t"generations"/"stop":\t"none"/; s/"strategy":/"former_strategy":/' "$TMP/good.json" > "$C"
expect_status 0 "$CETUNE" evolve --resume "$TMP/run"
grep -q '"name":.*"ga"' "$C" || die "the resumed run did not checkpoint as the GA"
head -c 3000 "$TMP/good.json" > "$C"
expect_status 1 "$CETUNE" evolve --resume "$TMP/run"
expect_grep "$TMP/err" "checkpoint.json:[0-9]*:[0-9]*:"
finish
