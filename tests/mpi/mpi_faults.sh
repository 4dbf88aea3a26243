# MPI build, faults: SIGTERM to mpirun stops every rank after rank 0 has
# written its checkpoint (mpirun exits 1: Open MPI's status when it is
# signalled itself); SIGTERM to rank 0 does the same and mpirun exits 143,
# rank 0's status, as the single process; a rank killed mid-run ends mpirun
# with a non-zero exit and a message naming the rank; the runs resume on
# another number of ranks and end byte-identically with the single-process
# run left alone.  A rank that cannot read a page rank 0 found stops the run
# with a message naming the rank and the page.
CETUNE=$1 PLAIN=$2 SRC=$3
. "$SRC/tests/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
G=$SRC/tests/data/ga
# The demo corpus and 300 generations: long enough (several seconds) that
# SIGTERM and the kill land mid-run however fast the machine is.
BASE="-p $G/lqf.json --pop 20 --generations 300 --patience 0 --resolution 0 --seed 11 --threads 1 --choose search"
RUN="$BASE -d $SRC/samples/demo"

# The PID of rank R among mpirun's children.
rank_pid() {
  for p in $(pgrep -P "$1"); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2"; then echo "$p"; return; fi
  done
}
same_as_ref() { # DIR WHAT
  for f in best.json individuals.csv top.json; do
    if cmp -s "$TMP/ref/$f" "$1/$f"; then ok; else fail "$2: $f differs from the uninterrupted run"; fi
  done
}

expect_status 0 "$PLAIN" evolve $RUN -o "$TMP/ref"

# signal_run DIR TARGET SIGNAL: evolve on 3 ranks into DIR, SIGNAL sent to
# TARGET (mpirun, or a rank's number) once generation 3 is checkpointed;
# $status is mpirun's exit status, DIR.err its standard error.
signal_run() {
  mpirun $MPIRUN_OPTS -np 3 "$CETUNE" evolve $RUN -o "$1" >"$1.out" 2>"$1.err" &
  local pid=$! target
  if wait_generation "$1" 3 $pid; then ok; else fail "$1: the run ended before it could be signalled"; fi
  if [ "$2" = mpirun ]; then target=$pid; else target=$(rank_pid $pid "$2"); fi
  if [ -n "$target" ]; then ok; kill -"$3" "$target"; else fail "rank $2 not found"; fi
  wait $pid
  status=$?
}

# SIGTERM to mpirun, resumed on 2 ranks.
signal_run "$TMP/term" mpirun TERM
if [ $status -ne 0 ]; then ok; else fail "SIGTERM: mpirun exit 0"; fi
expect_grep "$TMP/term.err" "interrupted by SIGTERM after"
expect_grep "$TMP/term/run.json" '"status":	"interrupted"'
sleep 0.2
if [ -z "$(pgrep -f -- "-o $TMP/term")" ]; then ok; else fail "ranks left running after SIGTERM"; fi
expect_status 0 mpirun $MPIRUN_OPTS -np 2 "$CETUNE" evolve --resume "$TMP/term"
expect_grep "$TMP/err" "resuming $TMP/term after [0-9]* complete generation"
same_as_ref "$TMP/term" "SIGTERM, resumed on 2 ranks"

# SIGTERM to rank 0 (as Slurm's scancel signals the tasks): mpirun exits 143.
signal_run "$TMP/term0" 0 TERM
if [ $status -eq 143 ]; then ok; else fail "SIGTERM to rank 0: mpirun exit $status, not 143"; fi
expect_grep "$TMP/term0.err" "interrupted by SIGTERM after"
expect_grep "$TMP/term0/run.json" '"status":	"interrupted"'

# Rank 1 killed, resumed on 2 ranks.
signal_run "$TMP/kill" 1 KILL
if [ $status -ne 0 ]; then ok; else fail "a killed rank: mpirun exit 0"; fi
expect_grep "$TMP/kill.err" "process rank 1 .* exited on signal 9"
expect_status 0 mpirun $MPIRUN_OPTS -np 2 "$CETUNE" evolve --resume "$TMP/kill"
same_as_ref "$TMP/kill" "rank 1 killed, resumed on 2 ranks"

# Rank 0 and the others in different directories (mpirun --wdir), the
# relative corpus path missing a page for ranks 1 and 2: as nodes that do
# not see the same files.
mkdir -p "$TMP/node0" "$TMP/node1"
cp -r "$SRC/samples/demo" "$TMP/node0/corpus"
cp -r "$SRC/samples/demo" "$TMP/node1/corpus"
rm "$TMP/node1/corpus/dailyherald/harriers-county-cup-semi-final.html"
expect_status 1 mpirun $MPIRUN_OPTS -np 1 --wdir "$TMP/node0" "$CETUNE" evolve $BASE -d corpus \
  -o "$TMP/shard" : -np 2 --wdir "$TMP/node1" "$CETUNE"
expect_grep "$TMP/err" "rank 1 cannot load its shard: corpus/dailyherald/harriers-county-cup-semi-final.html: No such file"
finish
