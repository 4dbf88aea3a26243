# MPI build: `cetune evaluate` under mpirun (each rank loads and scores its
# shard, rank 0 prints) writes byte-identical output to the single-process
# build on 1 and 3 ranks, in every format, per document too, with another
# metric and with a sample; --extracts (rank 0 alone) writes the same files;
# on pseudo-gold too, and so does evolve on it with folds of the pages with gold.
CETUNE=$1 PLAIN=$2 SRC=$3
. "$SRC/tests/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
D=$SRC/samples/demo
printf 'cronaca/festa-san-donato\ndailyherald/harriers-county-cup-semi-final\nstadtblatt/%s\n' \
  "$(ls "$D/stadtblatt" | sed -n 's/\.html$//p' | head -1)" >"$TMP/sample.txt"
E="evaluate -x alltext -x density -P c2=8 -x density -x lqf -d $D"
i=0
for opt in "" "--format json --per-doc" "--format csv --per-doc --metric chars" \
           "--format csv -s $TMP/sample.txt"; do
  i=$((i + 1))
  expect_status 0 "$PLAIN" $E $opt
  cp "$TMP/out" "$TMP/plain$i"
  for np in 1 3; do
    expect_status 0 mpirun $MPIRUN_OPTS -np $np "$CETUNE" $E $opt
    if cmp -s "$TMP/plain$i" "$TMP/out"; then ok; else fail "evaluate $opt on $np ranks: output differs"; fi
  done
done
expect_grep "$TMP/plain1" "macro average\|Macro Avg"
expect_grep "$TMP/err" "loaded 3 documents in 3 packages"
# The ranks scored their shards: rank 0 reports what they exchanged.
expect_grep "$TMP/err" "MPI traffic per evaluation batch (3 ranks"
# One rank exchanges nothing: no traffic line (it said "1 ranks").
expect_status 0 mpirun $MPIRUN_OPTS -np 1 "$CETUNE" $E
if grep -q "MPI traffic" "$TMP/err"; then fail "one rank printed: $(grep "MPI traffic" "$TMP/err")"; else ok; fi
# --version names the MPI library of the MPI build.
expect_status 0 mpirun $MPIRUN_OPTS -np 1 "$CETUNE" --version
expect_grep "$TMP/out" "^MPI  *[A-Za-z]"
expect_status 0 "$PLAIN" evaluate -x density -d "$D" --extracts "$TMP/x1"
expect_status 0 mpirun $MPIRUN_OPTS -np 2 "$CETUNE" evaluate -x density -d "$D" --extracts "$TMP/x2"
if diff -r "$TMP/x1" "$TMP/x2" >/dev/null; then ok; else fail "--extracts under mpirun: files differ"; fi
# --fitness template: each entry takes its pseudo-gold and the text nodes it
# leaves out (unscored: on wsj-brussels, headlines at a content place the
# shipped configuration drops) to the ranks.  Needs the portals corpus.
C=${CETUNE_CORPORA:-$SRC/../shared/corpora}
if [ -d "$C/portals/wsj-brussels" ]; then
  mkdir -p "$TMP/crawl/wsj"
  ln -s "$C"/portals/wsj-brussels/*.html "$TMP/crawl/wsj/"
  T="evaluate -x alltext -d $TMP/crawl/wsj --fitness template --template-ref $SRC/configs/article.json
     --per-doc --format csv"
  expect_status 0 "$PLAIN" $T
  cp "$TMP/out" "$TMP/tplain"
  expect_status 0 "$PLAIN" evaluate -x alltext -d "$C/portals/wsj-brussels" --per-doc --format csv
  # All the text, scored against the real gold: more words than where some are left out.
  if join -t, <(cut -d, -f2,3 "$TMP/tplain" | sort) <(cut -d, -f2,3 "$TMP/out" | sort) |
     awk -F, '$2 < $3 { n++ } END { exit !(n > 0) }'; then ok; else fail "no text left out"; fi
  for np in 1 3; do
    expect_status 0 mpirun $MPIRUN_OPTS -np $np "$CETUNE" $T
    if cmp -s "$TMP/tplain" "$TMP/out"; then ok; else fail "--fitness template on $np ranks"; fi
  done
  # Semi-supervised evolve: 3 pages with gold held out in turn, each fold's
  # run making the pseudo-gold of the others and sharing the ranks.
  for f in $(ls "$C"/portals/wsj-brussels/*.txt | head -3); do ln -s "$f" "$TMP/crawl/wsj/"; done
  S="evolve -p $SRC/params/accb.json -d $TMP/crawl/wsj --fitness template --pop 6 --generations 3
     --patience 0 --resolution 0 --seed 2 -q --threads 1"
  expect_status 0 "$PLAIN" $S -o "$TMP/semi-plain"
  expect_status 0 mpirun $MPIRUN_OPTS -np 3 "$CETUNE" $S -o "$TMP/semi-mpi"
  same_files "$TMP/semi-plain" "$TMP/semi-mpi" "semi-supervised on 3 ranks" best.json folds.csv \
    heldout.csv individuals.csv folds/3/individuals.csv
else
  echo "skipping the --fitness template part: $C/portals not found; set CETUNE_CORPORA"
fi
finish
