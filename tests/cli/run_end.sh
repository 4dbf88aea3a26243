# A run's end is recorded however it ends, and report tells a live run from
# a dead one by its lock: a closed pipe (evolve 2>&1 | head -1) stops the run
# as "interrupted" with exit 141; a run killed with SIGKILL, which cannot
# record anything, is reported as not running instead of "running" forever.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
RUN="-p $SRC/params/lqf.json -d $SRC/samples/demo --pop 8 --seed 3"

# A closed pipe: the first line of stderr, then SIGPIPE.
"$CETUNE" evolve $RUN --generations 3 -o "$TMP/pipe" 2>&1 | head -1 > "$TMP/first"
st=${PIPESTATUS[0]}
if [ "$st" = 141 ]; then ok; else fail "evolve | head -1: exit $st, expected 141"; fi
expect_grep "$TMP/pipe/run.json" '"status":	"interrupted"'
expect_status 0 "$CETUNE" evolve --resume "$TMP/pipe"
expect_grep "$TMP/pipe/run.json" '"status":	"finished"'

# A live run is running; killed, it is not.
"$CETUNE" evolve $RUN --generations 100000 --patience 0 --choose search -o "$TMP/kill" >/dev/null 2>&1 &
pid=$!
if wait_generation "$TMP/kill" 1 $pid; then ok; else fail "the run ended before generation 1"; fi
expect_status 0 "$CETUNE" report "$TMP/kill"
expect_grep "$TMP/kill/report.md" 'evaluations, running\.'
kill -KILL $pid
wait $pid 2>/dev/null
expect_grep "$TMP/kill/run.json" '"status":	"running"'
expect_status 0 "$CETUNE" report "$TMP/kill"
expect_grep "$TMP/kill/report.md" 'not running: the process ended without recording its end'
finish
