#!/bin/bash
# Output formats of extract and serve (docs/formats.md, "Output formats"):
# --format markdown writes NAME.md and serve answers text/markdown; --format json is one valid JSON object a page (JSON Lines for several)
# whose title, author and date are those of the page's markup (fixtures
# tests/data/meta), --url is its url; serve answers the same object for
# ?format=json and Accept: application/json.  Real pages: every scrapinghub
# page gives valid JSON whose text is what --format text prints.
# usage: extract_formats.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
. "$SRC/tests/serve_lib.sh"
M=$SRC/tests/data/meta

# Each fixture: the JSON's fields are the expected ones, its text is --format text's.
for page in "$M"/*.html; do
  name=$(basename "$page" .html)
  expect_status 0 "$CETUNE" extract -x alltext --format json "$page"
  "$CETUNE" extract -x alltext "$page" > "$TMP/text"
  if python3 - "$TMP/out" "$M/$name.json" "$TMP/text" <<'PY'
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
assert len(lines) == 2 and lines[1] == "", "not one line"
got, want = json.loads(lines[0]), json.load(open(sys.argv[2], encoding="utf-8"))
for k, v in want.items():
    assert got[k] == v, "%s: %r, expected %r" % (k, got[k], v)
assert set(got) == set(want) | {"text", "words"}, sorted(got)
assert got["text"] == open(sys.argv[3], encoding="utf-8").read()
assert isinstance(got["words"], int) and got["words"] > 0
PY
  then ok; else fail "$name: --format json"; fi
done

# Several pages: JSON Lines, no separators; --url is every page's url.
expect_status 0 "$CETUNE" extract --format json --url https://x.example/p "$M/opengraph.html" "$M/byline.html"
if python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
assert [r["title"] for r in rows] == ["Hochwasser am Rhein", "Headline of the day"], rows
assert all(r["url"] == "https://x.example/p" for r in rows)
' "$TMP/out"; then ok; else fail "JSON Lines: $(head -c 300 "$TMP/out")"; fi
# --out-dir writes NAME.json; --headers would break JSON Lines.
expect_status 0 "$CETUNE" extract --format json -x alltext --out-dir "$TMP/o" "$M/microdata.html"
if [ -s "$TMP/o/microdata.json" ]; then ok; else fail "--out-dir: no microdata.json"; fi
# Markdown: NAME.md; what extract prints (tests/data/extract/*markdown.expect fix its form).
expect_status 0 "$CETUNE" extract --format markdown -x alltext --out-dir "$TMP/o" "$M/microdata.html"
if [ -f "$TMP/o/microdata.md" ] && grep -q '^# Council \*approves\* the budget$' "$TMP/o/microdata.md"; then ok
else fail "--format markdown --out-dir: $(cat "$TMP/o/microdata.md" 2>&1 | head -3)"; fi
expect_status 2 "$CETUNE" extract --format json --headers "$M/none.html"
expect_grep "$TMP/err" "--headers does not go with --format json"
expect_status 2 "$CETUNE" extract --format yaml "$M/none.html"

# serve: ?format=json, Accept: application/json (with ?format=html the text is HTML).
start_server "$TMP/log" -c "$SRC/configs/article.json"
B=http://127.0.0.1:$PORT
"$CETUNE" extract --format json --url https://daily.example/x "$M/byline.html" > "$TMP/want.json"
code=$(curl -s -o "$TMP/a.json" -w '%{http_code}' --data-binary @"$M/byline.html" -H 'X-Url: https://daily.example/x' "$B/extract?format=json")
code2=$(curl -s -o "$TMP/b.json" -w '%{http_code}' --data-binary @"$M/byline.html" -H 'Accept: application/json' "$B/extract?format=html")
code3=$(curl -s -o "$TMP/c.txt" -w '%{http_code}' --data-binary @"$M/byline.html" "$B/extract?format=yaml")
code4=$(curl -s -o "$TMP/d.md" -D "$TMP/d.h" -w '%{http_code}' --data-binary @"$M/byline.html" "$B/extract?format=markdown")
"$CETUNE" extract --format markdown "$M/byline.html" > "$TMP/want.md"
if [ "$code4" = 200 ] && cmp -s "$TMP/d.md" "$TMP/want.md" && grep -qi '^content-type: text/markdown; charset=utf-8' "$TMP/d.h"; then ok
else fail "serve ?format=markdown: $code4 $(head -c 200 "$TMP/d.md")"; fi
stop_server
if [ "$code $code2 $code3" = "200 200 400" ]; then ok; else fail "serve status $code $code2 $code3"; fi
expect_grep "$TMP/c.txt" "format must be text, html, markdown or json"
if python3 - "$TMP/a.json" "$TMP/b.json" "$TMP/want.json" <<'PY'
import json, sys
a, b, want = (json.load(open(p, encoding="utf-8")) for p in sys.argv[1:])
for k in ("url", "title", "author", "date", "sitename", "language", "canonical", "text", "words"):
    assert a[k] == want[k], (k, a[k], want[k])
assert a["format"] == "text" and b["format"] == "html" and b["text"].startswith("<!DOCTYPE html>")
assert b["url"] == "https://daily.example/2019/12/headline" and b["author"] == "Pat Lee"
PY
then ok; else fail "serve JSON: $(head -c 300 "$TMP/a.json")"; fi

# Real pages: valid JSON, the same text as --format text.
C=${CETUNE_CORPORA:-$SRC/../shared/corpora}
if [ -d "$C/scrapinghub/html" ]; then
  mkdir -p "$TMP/sh"
  n=0
  for f in "$C"/scrapinghub/html/*.html.gz; do
    n=$((n + 1)); [ $n -le 40 ] || break
    "$CETUNE" extract --format json "$f" > "$TMP/sh/$n.json" && "$CETUNE" extract "$f" > "$TMP/sh/$n.txt" ||
      fail "$f"
  done
  if python3 - "$TMP/sh" <<'PY'
import json, os, sys
d = sys.argv[1]
n = titled = 0
for f in sorted(os.listdir(d)):
    if f.endswith(".json"):
        j = json.load(open(os.path.join(d, f), encoding="utf-8"))
        t = open(os.path.join(d, f[:-5] + ".txt"), encoding="utf-8").read()
        assert j["text"] == t, f
        n += 1
        titled += j["title"] is not None
assert n == 40 and titled >= 38, (n, titled)
PY
  then ok; else fail "scrapinghub pages as JSON"; fi
else
  echo "skipping the real pages: $C/scrapinghub not found (set CETUNE_CORPORA)"
fi
finish
