#!/bin/bash
# cetune serve: POST /extract answers exactly what cetune extract prints (text,
# ?format=html, JSON), routed by the URL in X-Url or ?url=, Content-Type's
# charset honoured; GET /health and /configs; 404, 405 and bad input answered
# without harm; one access-log line per request.
# usage: serve_basic.sh CETUNE SOURCE_DIR
CETUNE=$1
SRC=$2
source "$SRC/tests/serve_lib.sh"

mkdir -p "$T/cfg"
printf '{"extractor": "lqf", "params": {"t": 0.1}, "fitness": 0.75, "docs": 12}\n' > "$T/cfg/lqf.json"
printf '{"extractor": "alltext"}\n' > "$T/cfg/all.json"
cat > "$T/routes.json" <<'JSON'
{"routes": [{"host": "*.example.com", "config": "cfg/lqf.json"}], "default": "cfg/all.json"}
JSON
page=$(ls "$SRC"/samples/demo/cronaca/*.html | head -1)
"$CETUNE" extract -c "$T/cfg/lqf.json" "$page" > "$T/lqf.txt"
"$CETUNE" extract -c "$T/cfg/all.json" "$page" > "$T/all.txt"
"$CETUNE" extract -c "$T/cfg/lqf.json" --format html "$page" > "$T/lqf.html"
cmp -s "$T/lqf.txt" "$T/all.txt" && fail "the two configurations agree on the page: routing would not show"

start_server "$T/log" --routes "$T/routes.json" --threads 2
B=http://127.0.0.1:$PORT
# Every request goes through c (curl, counted for the access log).
c() { echo >> "$T/count"; curl -s --max-time 20 "$@"; }
post() { # OUT ARGS...: POST the page, body to OUT, prints the status
    local out=$1; shift
    c -o "$out" -w '%{http_code}' --data-binary @"$page" "$@"
}

[ "$(post "$T/o" -H 'X-Url: https://www.example.com/a/b' "$B/extract")" = 200 ] || fail "X-Url status"
cmp -s "$T/o" "$T/lqf.txt" || fail "X-Url: not the text of extract -c lqf.json"
[ "$(post "$T/o" "$B/extract?url=http%3A%2F%2Fexample.com%2Fx")" = 200 ] || fail "?url= status"
cmp -s "$T/o" "$T/lqf.txt" || fail "?url=: not the text of extract -c lqf.json"
[ "$(post "$T/o" -H 'X-Url: http://example.org/' "$B/extract")" = 200 ] || fail "default status"
cmp -s "$T/o" "$T/all.txt" || fail "an unrouted host does not get the default"
[ "$(post "$T/o" "$B/extract")" = 200 ] || fail "no URL status"
cmp -s "$T/o" "$T/all.txt" || fail "no URL does not get the default"
[ "$(post "$T/o" -H 'X-Url: http://a.example.com/' "$B/extract?format=html" -D "$T/h")" = 200 ] || fail "html status"
cmp -s "$T/o" "$T/lqf.html" || fail "?format=html: not extract --format html"
grep -qi '^content-type: text/html; charset=utf-8' "$T/h" || fail "html content type"
[ "$(post "$T/o" -H 'X-Url: http://a.example.com/' -H 'Accept: application/json' "$B/extract")" = 200 ] || fail "json status"
python3 - "$T/o" "$T/lqf.txt" "$T/cfg/lqf.json" <<'PY' || fail "JSON answer: $(head -c 300 "$T/o")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["text"] == open(sys.argv[2], encoding="utf-8").read()
assert j["config"] == sys.argv[3] and j["extractor"] == "lqf" and j["route"] == "example.com"
assert j["host"] == "a.example.com" and j["charset"] == "utf-8" and j["format"] == "text"
assert 0 < j["words"] <= j["page_words"] and j["ms"] >= 0 and j["bytes"] > 0
PY

# Content-Type's charset is honoured (it beats the page's own guess).
printf '<p>\xf0\xd2\xc9\xd7\xc5\xd4 mir</p>' > "$T/koi8.html"
[ "$(c -o "$T/o" -w '%{http_code}' --data-binary @"$T/koi8.html" \
     -H 'Content-Type: text/html; charset="KOI8-R"' "$B/extract")" = 200 ] || fail "koi8-r status"
[ "$(cat "$T/o")" = "Привет mir" ] || fail "koi8-r text: $(cat "$T/o")"
[ "$(c -o "$T/o" -w '%{http_code}' --data-binary @"$T/koi8.html" \
     -H 'Content-Type: text/html; charset=no-such-thing' "$B/extract")" = 415 ] || fail "unknown charset"
grep -q "unknown charset 'no-such-thing'" "$T/o" || fail "unknown charset message: $(cat "$T/o")"

# Bad input: empty and binary bodies, malformed URLs, bad formats.
[ "$(c -o "$T/o" -w '%{http_code}' -X POST "$B/extract")" = 400 ] || fail "empty body"
grep -q "empty body" "$T/o" || fail "empty body message"
head -c 4096 /dev/urandom > "$T/bin"; printf '\0\0\0\0' >> "$T/bin"
[ "$(c -o "$T/o" -w '%{http_code}' --data-binary @"$T/bin" "$B/extract")" = 422 ] || fail "binary body"
grep -q "binary" "$T/o" || fail "binary message: $(cat "$T/o")"
for u in 'example.com/x' 'http://a..b/' 'http://exa mple.com/' 'http://x.com:99999999/'; do
    [ "$(post "$T/o" -H "X-Url: $u" "$B/extract")" = 400 ] || fail "malformed URL '$u' not 400"
    grep -q "malformed URL" "$T/o" || fail "malformed URL message: $(cat "$T/o")"
done
[ "$(post "$T/o" -H 'Accept: application/json' -H 'X-Url: nope' "$B/extract")" = 400 ] || fail "json error status"
python3 -c 'import json,sys; assert "malformed URL" in json.load(open(sys.argv[1]))["error"]' "$T/o" || fail "JSON error"
[ "$(post "$T/o" "$B/extract?format=pdf")" = 400 ] || fail "bad format"
# Decoded newlines in a URL or a path cannot forge access-log lines (counted below).
forged='%0A2026-01-01T00:00:00Z%20127.0.0.1%20%22GET%20/forged%22%20200'
[ "$(post "$T/o" "$B/extract?url=http%3A%2F%2Fa.com$forged")" = 400 ] || fail "URL with a newline"
[ "$(c -o /dev/null -w '%{http_code}' "$B/x$forged")" = 404 ] || fail "path with a newline"

# Paths and methods.
[ "$(c -o /dev/null -w '%{http_code}' "$B/nope")" = 404 ] || fail "unknown path"
[ "$(c -o /dev/null -w '%{http_code}' -X DELETE "$B/extract")" = 405 ] || fail "DELETE /extract"
c -o /dev/null -D "$T/h" "$B/extract"
grep -q '^HTTP/1.1 405' "$T/h" && grep -qi '^allow: POST' "$T/h" || fail "GET /extract: $(cat "$T/h")"
[ "$(c -o /dev/null -w '%{http_code}' -X POST -d x "$B/health")" = 405 ] || fail "POST /health"
[ "$(c "$B/health")" = ok ] || fail "health"
c "$B/configs" > "$T/configs.json" || fail "configs"
python3 - "$T/configs.json" <<'PY' || fail "/configs: $(cat "$T/configs.json")"
import json, sys
j = json.load(open(sys.argv[1]))
c = {x["extractor"]: x for x in j["configs"]}
assert j["source"].endswith("routes.json") and set(c) == {"lqf", "alltext"}
assert c["lqf"]["fitness"] == 0.75 and c["lqf"]["docs"] == 12 and c["lqf"]["hosts"] == ["example.com"]
assert c["lqf"]["config"] == {"extractor": "lqf", "params": {"t": 0.1}} and not c["lqf"]["default"]
assert c["alltext"]["fitness"] is None and c["alltext"]["default"] and c["alltext"]["hosts"] == []
PY

stop_server
[ "$SERVE_STATUS" = 0 ] || fail "exit status $SERVE_STATUS after SIGTERM"
n=$(wc -l < "$T/count")
lines=$(grep -c '^20[0-9-]*T[0-9:]*Z 127\.0\.0\.1 "' "$T/log")
[ "$lines" = "$n" ] || fail "$lines access-log lines for $n requests"
grep -q '"POST /extract" 200 in=[0-9]* out=[0-9]* ms=[0-9.]* host=www.example.com route=example.com config=.*lqf.json words=' "$T/log" ||
    fail "access log line: $(grep POST "$T/log" | head -1)"
grep -q '"GET /nope" 404 ' "$T/log" || fail "404 not logged"
echo "serve_basic: ok ($n requests)"
