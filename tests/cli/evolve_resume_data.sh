# --resume refuses data that changed since the run started (docs/formats.md,
# "checkpoint.json": "data"): an edited gold file and a removed page are
# named, nothing of the run is touched, and once the data is back the run
# resumes and ends exactly as the run left alone, for 1 and 2 threads.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
C=$TMP/c
cp -r "$SRC/tests/data/ga/corpus" "$C"
# A run long enough that the signal at generation 3 comes before its end on a
# fast machine (150 generations of 20, as evolve_resume.sh), and without the
# folds of --choose cv, whose inner runs come before the run's own checkpoint.
RUN="-p $SRC/tests/data/ga/lqf.json -d $C --pop 20 --generations 150 --patience 0 --resolution 0 --seed 11 --choose search"

expect_status 0 "$CETUNE" evolve $RUN --threads 1 -o "$TMP/ref"
expect_grep "$TMP/ref/checkpoint.json" "\"data\":.*\"$C/news/news-1.txt\", \"[0-9a-f]\{16\}\""
expect_status 0 "$CETUNE" evolve $RUN --threads 2 -o "$TMP/ref2"
# same_data A B WHY: the two checkpoints record the same data.
same_data() {
  if cmp -s <(grep '"data":' "$1/checkpoint.json") <(grep '"data":' "$2/checkpoint.json"); then ok
  else fail "the checkpoints' data differ $3"; fi
}
same_data "$TMP/ref" "$TMP/ref2" "with 2 threads"

signal_at INT "$TMP/run" 3 "$CETUNE" evolve $RUN --threads 2 -o "$TMP/run"
cp "$TMP/run/checkpoint.json" "$TMP/ckpt"
G=$C/news/news-2.txt
cp "$G" "$TMP/gold"
echo "an edit" >>"$G"
expect_status 1 "$CETUNE" evolve --resume "$TMP/run"
expect_grep "$TMP/err" "$TMP/run: the data changed since the run started: $G is not as it was (its digest was [0-9a-f]*, now [0-9a-f]*)"
cmp -s "$TMP/ckpt" "$TMP/run/checkpoint.json" && ok || fail "a refused resume changed the checkpoint"
cp "$TMP/gold" "$G"
P=$C/blog/blog-3.html
mv "$P" "$TMP/page"
expect_status 1 "$CETUNE" evolve --resume "$TMP/run"
expect_grep "$TMP/err" "$TMP/run: the data changed since the run started: $P is not as it was (it was removed)"
mv "$TMP/page" "$P"
expect_status 0 "$CETUNE" evolve --resume "$TMP/run" --threads 1
same_run "$TMP/ref" "$TMP/run" "after the refused resumes"
same_data "$TMP/ref" "$TMP/run" "after the refused resumes"
finish
