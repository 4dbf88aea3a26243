# cetune label from the command line: usage errors exit 2, refusals about
# where gold would go exit 1 with the file named, and a server started on a
# free port answers, logs with -v, and stops with exit 0 on SIGTERM.  The
# endpoints are tests/unit/test_label.c's, the page tests/browser/'s.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
cp -r "$SRC/tests/data/label" "$TMP/c"
expect_status 2 "$CETUNE" label
expect_grep "$TMP/err" "-d CORPUS is required"
expect_status 2 "$CETUNE" label -d "$TMP/c" --listen nowhere
expect_grep "$TMP/err" "listen"
expect_status 1 "$CETUNE" label -d "$TMP/missing"
expect_grep "$TMP/err" "$TMP/missing"
expect_status 1 "$CETUNE" label -d "$SRC/tests/data/corpus/cleaneval"
expect_grep "$TMP/err" "is a CleanEval corpus.*give --out DIR"
expect_status 1 "$CETUNE" label -d "$SRC/tests/data/corpus/article"
expect_grep "$TMP/err" "is an article-JSON corpus"
expect_status 1 "$CETUNE" label -d "$TMP/c" --out "$TMP/c/news/labels"
expect_grep "$TMP/err" "inside the corpus"
expect_status 1 "$CETUNE" label -d "$TMP/c" --out "$SRC/tests/data/corpus/cleaneval"
expect_grep "$TMP/err" "is a CleanEval corpus: label writes canonical gold"
expect_status 2 "$CETUNE" label -d "$TMP/c" -c "$SRC/tests/data/label/news/storm.html"
expect_grep "$TMP/err" "storm.html:"

"$CETUNE" label -d "$TMP/c" --out "$TMP/labels" -v --listen 127.0.0.1:0 2>"$TMP/log" &
pid=$!
port=$(label_port "$TMP/log" $pid 1200)
[ -n "$port" ] || die "cetune label did not start: $(cat "$TMP/log")"
expect_grep "$TMP/log" "labelling 2 pages of $TMP/c (0 labelled)"
curl -s "http://127.0.0.1:$port/api/pages" > "$TMP/pages"
expect_grep "$TMP/pages" '"id":"news/market","labelled":false'
curl -s -H 'Content-Type: application/json' --data-binary '{"id": "news/storm", "keep": []}' \
  "http://127.0.0.1:$port/api/save" > "$TMP/saved"
expect_grep "$TMP/saved" "\"file\":\"$TMP/labels/news/storm.txt\""
if [ -f "$TMP/labels/news/storm.txt" ] && [ ! -s "$TMP/labels/news/storm.txt" ]; then ok; else fail "no empty gold in --out"; fi
if cmp -s "$TMP/labels/news/storm.html" "$TMP/c/news/storm.html"; then ok; else fail "the page is not copied beside its gold"; fi
if [ ! -e "$TMP/c/news/storm.txt" ]; then ok; else fail "with --out, gold was written into the corpus"; fi
kill -TERM $pid
wait $pid
st=$?
if [ $st -eq 0 ]; then ok; else fail "SIGTERM: exit $st"; fi
expect_grep "$TMP/log" '"POST /api/save" 200'
expect_grep "$TMP/log" "stopped with 1 of 2 pages labelled"
finish
