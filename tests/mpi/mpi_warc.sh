# MPI build: `cetune extract --warc` under mpirun spreads the files over the
# ranks (each rank extracts its range, rank 0 prints them in order) and
# writes byte-identical output to the single-process build, on 1, 2 and 3
# ranks and with 1 and 2 threads: the same JSON lines, the same messages for
# a corrupt gzip member and a missing file, the same counts and exit status;
# with --routes too.  A rank that cannot run the command line stops the job
# with a message naming it.
CETUNE=$1 PLAIN=$2 SRC=$3
. "$SRC/tests/cli_lib.sh"
. "$SRC/tests/mpi/mpi_lib.sh"
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
TOOL="$SRC/tests/cli/warc_tool.py"
D=$SRC/samples/demo
# Three small crawls of the demo pages: gzipped per record, plain (two
# hosts), and generated with images between the pages; a copy of the first
# with a corrupt gzip member.
$PY "$TOOL" pack "$TMP/a.warc.gz" "cronaca.example=$D/cronaca" || die "warc_tool pack failed"
$PY "$TOOL" pack "$TMP/b.warc" "dailyherald.example=$D/dailyherald" "stadtblatt.example=$D/stadtblatt" ||
  die "warc_tool pack failed"
$PY "$TOOL" gen "$TMP/c.warc.gz" "$(ls "$D"/stadtblatt/*.html | head -1)" 30 20000 3 || die "warc_tool gen failed"
$PY "$TOOL" corrupt "$TMP/a.warc.gz" "$TMP/bad.warc.gz" 1 || die "warc_tool corrupt failed"
cetune_lines() { grep '^cetune:' "$1" | grep -v '^cetune: MPI:'; }

i=0
for files in "a.warc.gz b.warc c.warc.gz" "a.warc.gz b.warc c.warc.gz bad.warc.gz missing.warc"; do
  i=$((i + 1))
  status=0
  [ $i -eq 2 ] && status=1
  W=$(for f in $files; do printf '%s ' "$TMP/$f"; done)
  expect_status $status "$PLAIN" extract --warc $W
  cp "$TMP/out" "$TMP/plain$i.out"
  cetune_lines "$TMP/err" >"$TMP/plain$i.err"
  for run in 1:1 2:2 3:1 3:2; do
      np=${run%:*} threads=${run#*:}
      expect_status $status mpirun $MPIRUN_OPTS -np $np "$CETUNE" extract --warc --threads $threads $W
      if cmp -s "$TMP/plain$i.out" "$TMP/out"; then ok; else fail "extract --warc $files on $np ranks, $threads threads: output differs"; fi
      if cetune_lines "$TMP/err" | cmp -s "$TMP/plain$i.err" -; then ok; else
        fail "extract --warc $files on $np ranks, $threads threads: messages differ"
        cetune_lines "$TMP/err" | diff "$TMP/plain$i.err" - | head -5 >&2
      fi
  done
  # Rank 0 says how the files were spread (only with more than one rank).
  expect_grep "$TMP/err" "^cetune: MPI: $(echo $files | wc -w) files spread over 3 ranks by bytes: [1-9][0-9]*, [1-9][0-9]*, [1-9][0-9]* files$"
done
[ "$(wc -l <"$TMP/plain1.out")" -eq 66 ] && ok || fail "expected 66 pages, got $(wc -l <"$TMP/plain1.out")"
expect_grep "$TMP/plain2.err" "bad.warc.gz: offset [0-9]*: corrupt gzip member"
expect_grep "$TMP/plain2.err" "missing.warc: No such file or directory"
# --routes: each page's configuration by its host, on every rank.
printf '{"extractor": "alltext"}\n' >"$TMP/all.json"
printf '{"routes": [{"host": "cronaca.example", "config": "%s"}], "default": "%s"}\n' \
  "$SRC/configs/article.json" "$TMP/all.json" >"$TMP/routes.json"
W="$TMP/a.warc.gz $TMP/b.warc $TMP/c.warc.gz"
expect_status 0 "$PLAIN" extract --warc --routes "$TMP/routes.json" $W
cp "$TMP/out" "$TMP/routes.out"
if cmp -s "$TMP/routes.out" "$TMP/plain1.out"; then fail "--routes changed nothing"; else ok; fi
expect_status 0 mpirun $MPIRUN_OPTS -np 3 "$CETUNE" extract --warc --routes "$TMP/routes.json" $W
if cmp -s "$TMP/routes.out" "$TMP/out"; then ok; else fail "extract --warc --routes on 3 ranks: output differs"; fi
# A rank that cannot run rank 0's command line (here: its shipped
# configuration is not there) stops the job, named; nothing is printed.
expect_status 1 mpirun $MPIRUN_OPTS -np 1 "$CETUNE" extract --warc $W : \
  -np 1 -x CETUNE_CONFIG=$TMP/none.json "$CETUNE" extract --warc $W
expect_grep "$TMP/err" "rank 1 could not start 'extract --warc' with rank 0's arguments"
[ -s "$TMP/out" ] && fail "a job that could not start printed pages" || ok
finish
