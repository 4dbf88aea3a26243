#!/bin/bash
# cetune serve: POST /extract answers exactly what cetune extract prints (text,
# ?format=html, JSON), routed by the URL in X-Url or ?url=, Content-Type's
# charset honoured; GET /health and /configs; 404, 405 and bad input answered
# without harm; one access-log line per request.
# usage: serve_basic.sh CETUNE SOURCE_DIR
CETUNE=$1
SRC=$2
source "$SRC/tests/serve_lib.sh"

mkdir -p "$TMP/cfg"
printf '{"extractor": "lqf", "params": {"t": 0.1}, "fitness": 0.75, "docs": 12}\n' > "$TMP/cfg/lqf.json"
printf '{"extractor": "alltext"}\n' > "$TMP/cfg/all.json"
cat > "$TMP/routes.json" <<'JSON'
{"routes": [{"host": "*.example.com", "config": "cfg/lqf.json"}], "default": "cfg/all.json"}
JSON
page=$(ls "$SRC"/samples/demo/cronaca/*.html | head -1)
"$CETUNE" extract -c "$TMP/cfg/lqf.json" "$page" > "$TMP/lqf.txt"
"$CETUNE" extract -c "$TMP/cfg/all.json" "$page" > "$TMP/all.txt"
"$CETUNE" extract -c "$TMP/cfg/lqf.json" --format html "$page" > "$TMP/lqf.html"
cmp -s "$TMP/lqf.txt" "$TMP/all.txt" && die "the two configurations agree on the page: routing would not show"

start_server "$TMP/log" --routes "$TMP/routes.json" --threads 2
B=http://127.0.0.1:$PORT
# Every request goes through c (curl, counted for the access log).
c() { echo >> "$TMP/count"; curl -s --max-time 20 "$@"; }
post() { # OUT ARGS...: POST the page, body to OUT, prints the status
    local out=$1; shift
    c -o "$out" -w '%{http_code}' --data-binary @"$page" "$@"
}

[ "$(post "$TMP/o" -H 'X-Url: https://www.example.com/a/b' "$B/extract")" = 200 ] || die "X-Url status"
cmp -s "$TMP/o" "$TMP/lqf.txt" || die "X-Url: not the text of extract -c lqf.json"
[ "$(post "$TMP/o" "$B/extract?url=http%3A%2F%2Fexample.com%2Fx")" = 200 ] || die "?url= status"
cmp -s "$TMP/o" "$TMP/lqf.txt" || die "?url=: not the text of extract -c lqf.json"
[ "$(post "$TMP/o" -H 'X-Url: http://example.org/' "$B/extract")" = 200 ] || die "default status"
cmp -s "$TMP/o" "$TMP/all.txt" || die "an unrouted host does not get the default"
[ "$(post "$TMP/o" "$B/extract")" = 200 ] || die "no URL status"
cmp -s "$TMP/o" "$TMP/all.txt" || die "no URL does not get the default"
[ "$(post "$TMP/o" -H 'X-Url: http://a.example.com/' "$B/extract?format=html" -D "$TMP/h")" = 200 ] || die "html status"
cmp -s "$TMP/o" "$TMP/lqf.html" || die "?format=html: not extract --format html"
grep -qi '^content-type: text/html; charset=utf-8' "$TMP/h" || die "html content type"
# A query parameter /extract does not know is refused, not ignored.
[ "$(post "$TMP/o" "$B/extract?formt=html")" = 400 ] || die "an unknown query parameter is not 400"
grep -q "unknown query parameter 'formt'" "$TMP/o" || die "unknown parameter message: $(cat "$TMP/o")"
[ "$(post "$TMP/o" -H 'X-Url: http://a.example.com/' -H 'Accept: application/json' "$B/extract")" = 200 ] || die "json status"
python3 - "$TMP/o" "$TMP/lqf.txt" "$TMP/cfg/lqf.json" <<'PY' || die "JSON answer: $(head -c 300 "$TMP/o")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["text"] == open(sys.argv[2], encoding="utf-8").read()
assert j["config"] == sys.argv[3] and j["extractor"] == "lqf" and j["route"] == "example.com"
assert j["host"] == "a.example.com" and j["charset"] == "utf-8" and j["format"] == "text"
assert 0 < j["words"] <= j["page_words"] and j["ms"] >= 0 and j["bytes"] > 0
PY

# Content-Type's charset is honoured (it beats the page's own guess).
printf '<p>\xf0\xd2\xc9\xd7\xc5\xd4 mir</p>' > "$TMP/koi8.html"
[ "$(c -o "$TMP/o" -w '%{http_code}' --data-binary @"$TMP/koi8.html" \
     -H 'Content-Type: text/html; charset="KOI8-R"' "$B/extract")" = 200 ] || die "koi8-r status"
[ "$(cat "$TMP/o")" = "Привет mir" ] || die "koi8-r text: $(cat "$TMP/o")"
[ "$(c -o "$TMP/o" -w '%{http_code}' --data-binary @"$TMP/koi8.html" \
     -H 'Content-Type: text/html; charset=no-such-thing' "$B/extract")" = 415 ] || die "unknown charset"
grep -q "unknown charset 'no-such-thing'" "$TMP/o" || die "unknown charset message: $(cat "$TMP/o")"

# Bad input: empty and binary bodies, malformed URLs, bad formats.
[ "$(c -o "$TMP/o" -w '%{http_code}' -X POST "$B/extract")" = 400 ] || die "empty body"
grep -q "empty body" "$TMP/o" || die "empty body message"
head -c 4096 /dev/urandom > "$TMP/bin"; printf '\0\0\0\0' >> "$TMP/bin"
[ "$(c -o "$TMP/o" -w '%{http_code}' --data-binary @"$TMP/bin" "$B/extract")" = 422 ] || die "binary body"
grep -q "binary" "$TMP/o" || die "binary message: $(cat "$TMP/o")"
for u in 'example.com/x' 'http://a..b/' 'http://exa mple.com/' 'http://x.com:99999999/'; do
    [ "$(post "$TMP/o" -H "X-Url: $u" "$B/extract")" = 400 ] || die "malformed URL '$u' not 400"
    grep -q "malformed URL" "$TMP/o" || die "malformed URL message: $(cat "$TMP/o")"
done
[ "$(post "$TMP/o" -H 'Accept: application/json' -H 'X-Url: nope' "$B/extract")" = 400 ] || die "json error status"
python3 -c 'import json,sys; assert "malformed URL" in json.load(open(sys.argv[1]))["error"]' "$TMP/o" || die "JSON error"
[ "$(post "$TMP/o" "$B/extract?format=pdf")" = 400 ] || die "bad format"
# Decoded newlines in a URL or a path cannot forge access-log lines (counted below).
forged='%0A2026-01-01T00:00:00Z%20127.0.0.1%20%22GET%20/forged%22%20200'
[ "$(post "$TMP/o" "$B/extract?url=http%3A%2F%2Fa.com$forged")" = 400 ] || die "URL with a newline"
[ "$(c -o /dev/null -w '%{http_code}' "$B/x$forged")" = 404 ] || die "path with a newline"

# Paths and methods.
[ "$(c -o /dev/null -w '%{http_code}' "$B/nope")" = 404 ] || die "unknown path"
[ "$(c -o /dev/null -w '%{http_code}' -X DELETE "$B/extract")" = 405 ] || die "DELETE /extract"
c -o /dev/null -D "$TMP/h" "$B/extract"
grep -q '^HTTP/1.1 405' "$TMP/h" && grep -qi '^allow: POST' "$TMP/h" || die "GET /extract: $(cat "$TMP/h")"
[ "$(c -o /dev/null -w '%{http_code}' -X POST -d x "$B/health")" = 405 ] || die "POST /health"
[ "$(c "$B/health")" = ok ] || die "health"
c "$B/configs" > "$TMP/configs.json" || die "configs"
python3 - "$TMP/configs.json" <<'PY' || die "/configs: $(cat "$TMP/configs.json")"
import json, sys
j = json.load(open(sys.argv[1]))
c = {x["extractor"]: x for x in j["configs"]}
assert j["source"].endswith("routes.json") and set(c) == {"lqf", "alltext"}
assert c["lqf"]["fitness"] == 0.75 and c["lqf"]["docs"] == 12 and c["lqf"]["hosts"] == ["example.com"]
assert c["lqf"]["config"] == {"extractor": "lqf", "params": {"t": 0.1}} and not c["lqf"]["default"]
assert c["alltext"]["fitness"] is None and c["alltext"]["default"] and c["alltext"]["hosts"] == []
PY

stop_server
[ "$SERVE_STATUS" = 0 ] || die "exit status $SERVE_STATUS after SIGTERM"
n=$(wc -l < "$TMP/count")
lines=$(grep -c '^20[0-9-]*T[0-9:]*Z 127\.0\.0\.1 "' "$TMP/log")
[ "$lines" = "$n" ] || die "$lines access-log lines for $n requests"
grep -q '"POST /extract" 200 in=[0-9]* out=[0-9]* ms=[0-9.]* host=www.example.com route=example.com config=.*lqf.json words=' "$TMP/log" ||
    die "access log line: $(grep POST "$TMP/log" | head -1)"
grep -q '"GET /nope" 404 ' "$TMP/log" || die "404 not logged"
echo "serve_basic: ok ($n requests)"
