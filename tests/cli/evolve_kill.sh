# cetune evolve killed with SIGKILL in the middle of a generation (no chance
# to clean up: run.json still says "running", a temporary file may be left),
# then resumed from the last checkpoint: it ends byte-identically with the
# same run left alone, and the killed directory is never restarted over
# without --force.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
# Crunch with a large population: a generation evaluates for about 0.1 s and
# writes its files in a few ms, so a kill lands in the evaluation.
RUN="-p $SRC/params/crunch.json -d $SRC/samples/demo --pop 400 --generations 15 --patience 0 --resolution 0 --seed 5 --choose search"

expect_status 0 "$CETUNE" evolve $RUN --threads 2 -o "$TMP/ref"

# SIGKILL once generation 3 is on disk, while a later one is evaluated.
"$CETUNE" evolve $RUN --threads 1 -o "$TMP/run" >"$TMP/out1" 2>"$TMP/err1" &
pid=$!
wait_generation "$TMP/run" 3 $pid
sleep 0.05
kill -KILL $pid
{ wait $pid; } 2>/dev/null
status=$?
if [ $status -eq 137 ]; then ok; else fail "the run was not killed by SIGKILL (exit $status)"; fi
killed=$(generation "$TMP/run")
if [ -n "$killed" ] && [ "$killed" -ge 3 ] && [ "$killed" -lt 14 ]; then ok
else fail "killed after generation '$killed', not in the middle of the run"; fi
expect_grep "$TMP/run/run.json" '"status":	"running"'
for f in best.json individuals.csv generations.csv top.json sample.txt checkpoint.json; do
  if [ -s "$TMP/run/$f" ]; then ok; else fail "$f missing after SIGKILL"; fi
done
cp "$TMP/run/checkpoint.json" "$TMP/checkpoint.killed"

# Never restarted over without --force: the checkpoint stays as it was.
expect_status 1 "$CETUNE" evolve $RUN --threads 1 -o "$TMP/run"
expect_grep "$TMP/err" "exists and is not empty; use --force to overwrite it, or --resume"
if cmp -s "$TMP/run/checkpoint.json" "$TMP/checkpoint.killed"; then ok; else fail "the refused run touched the checkpoint"; fi

# A temporary file of a process killed while writing goes away on resume
# (pid 2^22 + 1 is above Linux's largest pid, so no process has it).
echo partial > "$TMP/run/best.json.tmp.4194305"
expect_status 0 "$CETUNE" evolve --resume "$TMP/run" --threads 1
expect_grep "$TMP/err" "resuming $TMP/run after $((killed + 1)) complete generation"
expect_grep "$TMP/out" 'crunch on 36 documents: 15 generations'
same_run "$TMP/ref" "$TMP/run" "from the uninterrupted run"
expect_grep "$TMP/run/run.json" '"status":	"finished"'
if ls "$TMP/run" | grep -q '\.tmp\.'; then fail "temporary files left: $(ls "$TMP/run")"; else ok; fi
finish
