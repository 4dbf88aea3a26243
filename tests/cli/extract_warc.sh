#!/bin/bash
# cetune extract --warc on crawls made by Debian's wget from a local server
# (127.0.0.1 only): record by record the same JSON as `extract --format json
# --url URI` on the pages as files, whether the WARC is gzipped per record,
# plain or gzipped whole, with chunked transfer, gzip and deflate content
# encodings and a charset given only by HTTP; record order; the counts of what
# was passed over; truncated files keep every complete record; garbage and a
# corrupt gzip member lose nothing else; memory stays flat as the file grows.
# usage: extract_warc.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
. "$SRC/tests/cli_lib.sh"
command -v wget >/dev/null || { echo "skipping: wget not found (scripts/install-deps.sh)"; exit 77; }
PY=/usr/bin/python3
[ -x $PY ] || PY=python3
TOOL="$SRC/tests/cli/warc_tool.py"

# The site: the demo pages, and pages that exercise the HTTP decoding.
site=$TMP/site
mkdir -p "$site/enc"
cp -r "$SRC"/samples/demo/* "$site/"
first=$(ls "$SRC"/samples/demo/cronaca/*.html | head -1)
second=$(ls "$SRC"/samples/demo/stadtblatt/*.html | head -1)
for e in chunked gzip deflate chunked-gzip; do cp "$first" "$site/enc/$e.html"; done
cp "$second" "$site/enc/chunked-deflate.html"
# windows-1252 bytes under a page that claims UTF-8: HTTP's charset comes first.
printf '<html><head><meta charset="utf-8"><title>Caf\xe9</title></head><body><h1>Caf\xe9 cr\xe8me</h1><p>Na\xefve fa\xe7ade \x96 \x93quoted\x94 \x80 na\xefvet\xe9.</p><p><a href="missing.html">gone</a></p></body></html>\n' >"$site/latin.html"
sed 's/\xe9/é/g; s/\xe8/è/g; s/\xef/ï/g; s/\xe7/ç/g; s/\x96/–/g; s/\x93/“/g; s/\x94/”/g; s/\x80/€/g' "$site/latin.html" >"$TMP/latin-utf8.html"
head -c 3000 /dev/urandom >"$site/photo.jpg"

$PY -u "$TOOL" serve "$site" >"$TMP/port" 2>"$TMP/server.err" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 100); do
    port=$(sed -n 's/^port //p' "$TMP/port")
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || die "the test server did not start: $(cat "$TMP/server.err")"
base="http://127.0.0.1:$port"
crawl() { # crawl NAME WGET-OPTIONS...: a recursive crawl of the site into NAME.warc[.gz]
    local name=$1; shift
    (cd "$TMP" && wget -q -r -l 2 -e robots=off --no-proxy -P "dl-$name" --warc-file="$name" "$@" "$base/" "$base/latin.html" "$base/photo.jpg")
}
crawl gz
crawl plain --no-warc-compression
gzip -c "$TMP/plain.warc" >"$TMP/whole.warc.gz"
for f in gz.warc.gz plain.warc whole.warc.gz; do
    [ -s "$TMP/$f" ] || die "wget wrote no $f"
done

# Where each URL's page lies as a file (the latin page: its UTF-8 copy).
(cd "$site" && find . -name '*.html' | sort) | while read -r rel; do
    rel=${rel#./}
    file="$site/$rel"
    [ "$rel" = latin.html ] && file=$TMP/latin-utf8.html
    case $rel in enc/*) file=$first ;; esac
    [ "$rel" = enc/chunked-deflate.html ] && file=$second
    echo "$base/$rel $file"
done >"$TMP/map"

expect_status 0 "$CETUNE" extract --warc "$TMP/gz.warc.gz"
cp "$TMP/out" "$TMP/gz.jsonl"
cp "$TMP/err" "$TMP/gz.err"
pages=$(ls "$site"/*/*.html "$site"/*.html | wc -l)
lines=$(wc -l <"$TMP/gz.jsonl")
# Every page (and a listing page per directory: index pages are HTML too).
dirs=$(find "$site" -type d | wc -l)
[ "$lines" -eq $((pages + dirs)) ] && ok || fail "$lines JSON lines for $pages pages and $dirs listings"
if $PY "$TOOL" compare "$TMP/gz.jsonl" "$TMP/map" "$CETUNE" >"$TMP/cmp"; then ok; else fail "$(cat "$TMP/cmp")"; fi
expect_grep "$TMP/cmp" "compared $pages\$"
grep -q '"title":"Café' "$TMP/gz.jsonl" && ok || fail "the latin page's title is not Café (HTTP charset)"
"$CETUNE" extract --warc -x alltext "$TMP/gz.warc.gz" 2>/dev/null | grep -q 'Naïve façade – “quoted” € naïveté' && ok || fail "the latin page's text is not decoded as windows-1252"
# Record order: the lines come in the order of the response records.
cut -d' ' -f1 <($PY "$TOOL" ends "$TMP/gz.warc.gz") >"$TMP/ids"
$PY -c 'import json,sys; [print(json.loads(l)["WARC-Record-ID"]) for l in open(sys.argv[1])]' "$TMP/gz.jsonl" >"$TMP/got-ids"
if grep -Fx -f "$TMP/got-ids" "$TMP/ids" | cmp -s - "$TMP/got-ids"; then ok; else fail "JSON lines not in record order"; fi
grep -q '"WARC-Date":"20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T' "$TMP/gz.jsonl" && ok || fail "no WARC-Date"
grep -q "\"WARC-Target-URI\":\"$base/latin.html\"" "$TMP/gz.jsonl" && ok || fail "no WARC-Target-URI without <>"
# The counts: requests, the gold .txt files and the image, the 404, warcinfo.
expect_grep "$TMP/gz.err" "$lines pages extracted; skipped: .* not HTML, [0-9]* not 2xx, [0-9]* request, [0-9]* other; 0 corrupt or truncated"

# The same JSON from a plain WARC, one gzipped whole, any number of threads.
for f in plain.warc whole.warc.gz; do
    for t in 1 3; do
        "$CETUNE" extract --warc --threads $t "$TMP/$f" >"$TMP/o" 2>/dev/null
        cmp -s <(grep -v '"WARC-' "$TMP/gz.jsonl" | wc -l) <(grep -v '"WARC-' "$TMP/o" | wc -l) || true
        $PY -c '
import json, sys
strip = lambda p: [{k: v for k, v in json.loads(l).items() if k not in ("WARC-Record-ID", "WARC-Date")} for l in open(p)]
sys.exit(strip(sys.argv[1]) != strip(sys.argv[2]))' "$TMP/gz.jsonl" "$TMP/o" && ok || fail "$f --threads $t gives other pages than gz.warc.gz"
    done
done
"$CETUNE" extract --warc "$TMP/gz.warc.gz" "$TMP/plain.warc" >"$TMP/two" 2>/dev/null
[ "$(wc -l <"$TMP/two")" -eq $((2 * lines)) ] && ok || fail "two files: $(wc -l <"$TMP/two") lines"

# Truncated files keep every complete record: exactly the pages whose
# record (gzip member) ends before the cut.
for f in gz.warc.gz plain.warc; do
    $PY "$TOOL" ends "$TMP/$f" >"$TMP/ends"
    "$CETUNE" extract --warc "$TMP/$f" >"$TMP/full" 2>/dev/null
    size=$(stat -c %s "$TMP/$f")
    for cut in $((size / 5)) $((size / 2)) $((size * 4 / 5)) $((size - 7)); do
        head -c $cut "$TMP/$f" >"$TMP/cut.$f"
        expect_status 1 "$CETUNE" extract --warc "$TMP/cut.$f"
        expect_grep "$TMP/err" "cut.$f: .*offset [0-9]*: .*\(truncated\|cut short\)"
        awk -v c=$cut '$2 <= c {print $1}' "$TMP/ends" >"$TMP/complete"
        grep -F -f "$TMP/complete" "$TMP/full" | cmp -s - "$TMP/out" && ok || fail "$f cut at $cut: not every complete record kept ($(wc -l <"$TMP/out") lines)"
    done
done
# Whole-file gzip cut short: the records before the cut.
size=$(stat -c %s "$TMP/whole.warc.gz")
head -c $((size / 2)) "$TMP/whole.warc.gz" >"$TMP/cut.warc.gz"
expect_status 1 "$CETUNE" extract --warc "$TMP/cut.warc.gz"
n=$(wc -l <"$TMP/out")
[ "$n" -gt 0 ] && head -$n "$TMP/gz.jsonl" | grep -v '"WARC-Record-ID"' >/dev/null; ok
expect_grep "$TMP/err" "record at offset 0 (byte [0-9]* of its gzip member): gzip member cut short"

# Garbage: random bytes; junk between records; a corrupt gzip member.
head -c 200000 /dev/urandom >"$TMP/random.warc"
expect_status 1 "$CETUNE" extract --warc "$TMP/random.warc"
expect_grep "$TMP/err" "random.warc: offset 0: bytes that are not a WARC record"
[ ! -s "$TMP/out" ] && ok || fail "output from random bytes"
# A gzip header, then a stored block whose lengths disagree.
(printf '\037\213\010\000\000\000\000\000\000\003'; head -c 50000 /dev/zero | tr '\0' x) >"$TMP/random.warc.gz"
expect_status 1 "$CETUNE" extract --warc "$TMP/random.warc.gz"
expect_grep "$TMP/err" "random.warc.gz: offset 0: corrupt gzip member"
mid=$(awk 'NR == 40 {print $2}' <($PY "$TOOL" ends "$TMP/plain.warc"))
{ head -c "$mid" "$TMP/plain.warc"; echo "this line is junk"; head -c 5000 /dev/urandom; printf '\r\n'; tail -c +$((mid + 1)) "$TMP/plain.warc"; } >"$TMP/junk.warc"
expect_status 1 "$CETUNE" extract --warc "$TMP/junk.warc"
expect_grep "$TMP/err" "junk.warc: offset $mid: bytes that are not a WARC record passed over"
cmp -s "$TMP/out" <("$CETUNE" extract --warc "$TMP/plain.warc" 2>/dev/null) && ok || fail "junk between records lost a record"
$PY "$TOOL" corrupt "$TMP/gz.warc.gz" "$TMP/bad.warc.gz" 60
expect_status 1 "$CETUNE" extract --warc "$TMP/bad.warc.gz"
expect_grep "$TMP/err" "1 corrupt or truncated"
[ "$(wc -l <"$TMP/out")" -ge $((lines - 1)) ] && ok || fail "a corrupt member lost more than its record: $(wc -l <"$TMP/out") of $lines"
grep -v -F -f "$TMP/out" "$TMP/gz.jsonl" | wc -l | grep -qx '[01]' && ok || fail "a corrupt member changed other records"

# Usage: --warc prints JSON and needs files.
expect_status 2 "$CETUNE" extract --warc
expect_status 2 "$CETUNE" extract --warc --format html "$TMP/gz.warc.gz"
expect_status 2 "$CETUNE" extract --warc --url http://x.org/ "$TMP/gz.warc.gz"
expect_status 1 "$CETUNE" extract --warc "$TMP/no-such.warc"
expect_grep "$TMP/err" "no-such.warc: No such file"

# Memory: a WARC five times larger (pages and 1 MB images, per-record gzip)
# peaks at the same resident memory (not under sanitizers: their quarantine
# keeps freed memory).
if [ -n "${CETUNE_SANITIZED:-}" ]; then
    echo "memory check skipped under sanitizers"
elif [ -x /usr/bin/time ]; then
    # Both hold more pages than a batch (256), so both fill one.
    $PY "$TOOL" gen "$TMP/small.warc.gz" "$first" 300 1048576 4
    $PY "$TOOL" gen "$TMP/large.warc.gz" "$first" 1500 1048576 20
    peak() { /usr/bin/time -f '%M' -o "$TMP/rss" "$CETUNE" extract --warc --threads 2 -x alltext "$1" >/dev/null 2>&1; tail -1 "$TMP/rss"; }
    s=$(peak "$TMP/small.warc.gz")
    l=$(peak "$TMP/large.warc.gz")
    echo "peak RSS: $(stat -c %s "$TMP/small.warc.gz") bytes: $s kB; $(stat -c %s "$TMP/large.warc.gz") bytes: $l kB"
    [ "$l" -lt $((s + s / 4)) ] && ok || fail "memory grows with the WARC: $s kB -> $l kB"
fi
echo "extract_warc: $checks checks, $fails failed"
[ $fails -eq 0 ]
