# Junk is refused, naming the file, line and column, instead of being
# ignored: a parameter that the others switch off, scores that are not
# numbers, malformed ad-host lines and binary ad-host files; a UTF-8
# byte-order mark before JSON is accepted.  extract's -o is a directory: a
# file name for it is refused.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
P=$SRC/tests/data/ga/corpus/news/news-1.html

printf '{"extractor": "pipeline", "params": {"s1": "lqf",\n  "s1.accb.r": 50}}\n' > "$TMP/stage.json"
expect_status 2 "$CETUNE" extract -c "$TMP/stage.json" "$P"
expect_grep "$TMP/err" "stage.json:2:3: parameter \"s1.accb.r\" has no effect here"
printf '{"extractor": "pipeline", "params": {"s1": "accb", "s1.accb.r": 50}}\n' > "$TMP/stage_ok.json"
expect_status 0 "$CETUNE" extract -c "$TMP/stage_ok.json" "$P"
printf '{"extractor": "lqf", "params": {}, "fitness": "abc"}\n' > "$TMP/fit.json"
expect_status 2 "$CETUNE" extract -c "$TMP/fit.json" "$P"
expect_grep "$TMP/err" 'fit.json:1:47: "fitness" must be a number'
printf '{"extractor": "lqf", "params": {}, "adhosts": "x"}\n' > "$TMP/ah.json"
expect_status 2 "$CETUNE" extract -c "$TMP/ah.json" "$P"
# Every shipped configuration and example still loads.
for f in "$SRC"/examples/*.json "$SRC"/configs/*.json; do
  [ -e "$f" ] || continue
  grep -q '"params"' "$f" || continue
  expect_status 0 "$CETUNE" extract -c "$f" "$P"
done

printf '\xEF\xBB\xBF{"extractor": "lqf",\n "params": {"t": 0.3}}\n' > "$TMP/bom.json"
expect_status 0 "$CETUNE" extract -c "$TMP/bom.json" "$P"
printf '\xEF\xBB\xBF{"extractor": "lqf",\n "params": {"t": 7}}\n' > "$TMP/bom_bad.json"
expect_status 2 "$CETUNE" extract -c "$TMP/bom_bad.json" "$P"
expect_grep "$TMP/err" 'bom_bad.json:2:'

printf 'good.example.com\n0.0.0.0 bad..host\n' > "$TMP/hosts.txt"
expect_status 2 "$CETUNE" extract -x crunch --adhosts "$TMP/hosts.txt" "$P"
expect_grep "$TMP/err" "hosts.txt:2:13: 'bad..host' is not a host name"
printf 'a.com\n\x7fELF\x01\x00\x00binary\n' > "$TMP/binary.txt"
expect_status 2 "$CETUNE" extract -x crunch --adhosts "$TMP/binary.txt" "$P"
expect_grep "$TMP/err" "binary.txt:2:1: "

# extract --max-body, as serve's: a larger page fails with the limit named.
expect_status 1 "$CETUNE" extract -x lqf --max-body 100 "$P"
expect_grep "$TMP/err" "news-1.html: larger than the limit of 100 bytes"
expect_status 0 "$CETUNE" extract -x lqf --max-body 1000000 "$P"
expect_status 2 "$CETUNE" extract -x lqf --max-body 0 "$P"
# evaluate --max-body: the demo's pages over 12,000 bytes are skipped with the limit named, the
# others scored (the demo holds pages on both sides of it).
big=$(find "$SRC/samples/demo" -name '*.html' -size +12000c | wc -l)
small=$(find "$SRC/samples/demo" -name '*.html' -size -12001c | wc -l)
[ "$big" -gt 0 ] && [ "$small" -gt 0 ] && ok || fail "the demo has pages on both sides of 12,000 bytes"
expect_status 0 "$CETUNE" evaluate -x lqf -d "$SRC/samples/demo" --max-body 12000
expect_grep "$TMP/err" "larger than the limit of 12000 bytes"
expect_grep "$TMP/err" "loaded $small documents in [0-9]* packages.*skipped $big"
expect_status 2 "$CETUNE" evaluate -x lqf -d "$SRC/samples/demo" --max-body 0

# extract -o names a directory.
( cd "$TMP" && "$CETUNE" extract -x score -o out.txt "$P" ) >"$TMP/out" 2>"$TMP/err"
st=$?
if [ $st = 2 ]; then ok; else fail "extract -o out.txt: exit $st, expected 2"; fi
if [ -e "$TMP/out.txt" ]; then fail "extract -o out.txt made $TMP/out.txt"; else ok; fi
expect_grep "$TMP/err" "names a directory"
finish
