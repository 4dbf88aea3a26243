# cetune evolve interrupted by SIGINT and by SIGTERM, then resumed, ends
# byte-identically with the same run left alone.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
G=$SRC/tests/data/ga
# Long enough to be interrupted midway (resolution 0: the search never runs dry).
RUN="-p $G/lqf.json -d $G/corpus --pop 20 --generations 150 --patience 0 --resolution 0 --seed 11 --threads 2 --choose search"

expect_status 0 "$CETUNE" evolve $RUN -o "$TMP/ref"

# SIGINT during generation 4 or later.
signal_at INT "$TMP/run" 3 "$CETUNE" evolve $RUN -o "$TMP/run"
expect_grep "$TMP/err1" "interrupted by SIGINT after"
expect_grep "$TMP/err1" "resume with: cetune evolve --resume $TMP/run"
expect_grep "$TMP/run/run.json" '"status":	"interrupted"'
first=$(generation "$TMP/run")
if [ "$first" -lt 149 ]; then ok; else fail "not interrupted midway"; fi
if [ "$(($(wc -l < "$TMP/run/generations.csv") - 1))" -eq $((first + 1)) ]; then ok
else fail "generations.csv does not match the checkpoint"; fi

# Resumed, then stopped again with SIGTERM.
signal_at TERM "$TMP/run" $((first + 3)) "$CETUNE" evolve --resume "$TMP/run" --threads 1
expect_grep "$TMP/err1" "resuming $TMP/run after $((first + 1)) complete generation"
expect_grep "$TMP/err1" "interrupted by SIGTERM"

# Resumed to the end: the same files as the run left alone.
expect_status 0 "$CETUNE" evolve --resume "$TMP/run"
expect_grep "$TMP/out" 'lqf on 8 documents: 150 generations'
same_run "$TMP/ref" "$TMP/run" "from the uninterrupted run"
expect_grep "$TMP/run/run.json" '"status":	"finished"'
if [ "$(grep -o 'cetune evolve --resume' "$TMP/run/run.json" | wc -l)" -eq 2 ]; then ok; else fail "run.json lists the resumes"; fi
finish
