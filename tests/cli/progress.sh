# Progress without a terminal (nohup, cron, a batch system's log): plain
# lines, the first generation's at once, then at most every --progress
# seconds, and the last; --quiet prints none; the runs of --folds show
# theirs, named by fold.  Never a carriage return outside a terminal.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
G=$SRC/tests/data/ga
RUN="-p $G/lqf.json -d $G/corpus --pop 8 --generations 5 --seed 7 --choose search"

lines() { grep -c '^cetune: .*generation [0-9]*/5 best [0-9.]* mean [0-9.]* .* evals/s left ' "$1"; }
expect_status 0 "$CETUNE" evolve $RUN -o "$TMP/a"
# The default interval (60 s) is far longer than this run: the first and the last.
n=$(lines "$TMP/err")
if [ "$n" -ge 2 ]; then ok; else fail "$n progress lines, expected the first and the last"; fi
expect_grep "$TMP/err" '^cetune: generation 1/5 best'
expect_grep "$TMP/err" '^cetune: generation 5/5 best .* left 0:00'
if grep -q $'\r' "$TMP/err"; then fail "a carriage return outside a terminal"; else ok; fi
expect_status 0 "$CETUNE" evolve $RUN --progress 0 -o "$TMP/b"
n=$(lines "$TMP/err")
if [ "$n" = 5 ]; then ok; else fail "--progress 0: $n lines, expected one per generation (5)"; fi
expect_status 0 "$CETUNE" evolve $RUN --quiet -o "$TMP/c"
if grep -q 'generation [0-9]*/5 best' "$TMP/err"; then fail "--quiet printed progress"; else ok; fi
expect_status 0 "$CETUNE" evolve --resume "$TMP/c" --quiet
# Inside --folds, each fold's run shows its progress.
expect_status 0 "$CETUNE" evolve $RUN --folds 2 --progress 0 -o "$TMP/f"
expect_grep "$TMP/err" '^cetune: fold 1: generation 1/5 best'
expect_grep "$TMP/err" '^cetune: fold 2: generation 5/5 best'
finish
