# MPI build: evolve on 1, 2 and 3 ranks (oversubscribed) gives best.json,
# individuals.csv and top.json byte-identical to the single-process build,
# also when a document of one rank's shard cannot be read (it is skipped
# the same way, named in the same message), and with other goals and folds;
# the bytes a rank sends per evaluation batch do not depend on how many
# documents it holds.  The search runs with --choose search for that: the
# final choice by cross-validation (src/run/choose.c, the default) runs
# fold searches on the ranks first; it is checked for identical files below.
CETUNE=$1 PLAIN=$2 SRC=$3
. "$SRC/tests/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
RUN="-p $SRC/params/density.json --pop 12 --generations 4 --patience 0 --seed 5 --choose search"

# The demo corpus, with one page of the middle package (rank 1's shard of 3)
# truncated in its gzip stream: it cannot be read.
mkdir -p "$TMP/corpus"
cp -r "$SRC/samples/demo/." "$TMP/corpus/"
bad=$TMP/corpus/dailyherald/harriers-county-cup-semi-final.html
gzip -c "$bad" | head -c 300 >"$bad.gz"
rm "$bad"

for corpus in "$SRC/samples/demo" "$TMP/corpus"; do
  rm -rf "$TMP/plain" "$TMP"/np* "$TMP/sent"
  expect_status 0 "$PLAIN" evolve $RUN -d "$corpus" -o "$TMP/plain" --threads 2
  cp "$TMP/err" "$TMP/plain.err"
  for np in 1 2 3; do
    for threads in 1 2; do
      [ $np = 1 ] && [ $threads = 1 ] && continue
      out=$TMP/np$np-t$threads
      expect_status 0 mpirun $MPIRUN_OPTS -np $np "$CETUNE" evolve $RUN -d "$corpus" -o "$out" --threads $threads
      for f in best.json individuals.csv top.json; do
        if cmp -s "$TMP/plain/$f" "$out/$f"; then ok; else fail "$corpus, $np ranks, $threads threads: $f differs"; fi
      done
      # What a rank sends per batch: running sums, the same whatever its share of the documents.
      sent=$(sed -n 's/.*every other rank at most sent \([0-9]*\) .*/\1/p' "$TMP/err")
      [ $np -gt 1 ] && echo "$sent" >>"$TMP/sent"
      if [ "$corpus" = "$TMP/corpus" ]; then
        expect_grep "$TMP/err" "skipped $bad.gz: cannot read page"
        expect_grep "$TMP/err" "loaded 35 documents in 3 packages"
      fi
    done
  done
  if [ "$(sort -u "$TMP/sent" | wc -l)" = 1 ] && [ -n "$(head -1 "$TMP/sent")" ]; then ok
  else fail "$corpus: the bytes a rank sends per batch depend on its documents: $(tr '\n' ' ' <"$TMP/sent")"; fi
done
# Goals measured from running sums, racing (per-document counts of its
# blocks), folds (whose runs share the ranks with the final run) and the
# final choice by cross-validation (evolve's default), and CMA-ES (whose
# state, like the GA's, lives on rank 0 only), on 2 ranks.
for opt in "--objective macro-f1" "--pareto f1,precision" "--race" "--choose cv" "--folds 3" \
           "--strategy cmaes" "--strategy cmaes --choose cv"; do
  rm -rf "$TMP/a" "$TMP/b"
  expect_status 0 "$PLAIN" evolve $RUN $opt -d "$SRC/samples/demo" -o "$TMP/a" --threads 1
  expect_status 0 mpirun $MPIRUN_OPTS -np 2 "$CETUNE" evolve $RUN $opt -d "$SRC/samples/demo" -o "$TMP/b" --threads 1
  for f in best.json individuals.csv top.json; do
    if cmp -s "$TMP/a/$f" "$TMP/b/$f"; then ok; else fail "$opt, 2 ranks: $f differs"; fi
  done
  case $opt in
    --folds*|*--choose\ cv*)
      for f in folds.csv heldout.csv; do
        if cmp -s "$TMP/a/$f" "$TMP/b/$f"; then ok; else fail "$opt, 2 ranks: $f differs"; fi
      done ;;&
    --strategy*) expect_grep "$TMP/b/run.json" '"strategy":[[:space:]]*"cmaes"' ;;
  esac
done
expect_grep "$TMP/plain.err" "skipped $bad.gz: cannot read page"
finish
