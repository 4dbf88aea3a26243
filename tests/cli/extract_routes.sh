#!/bin/bash
# cetune extract --routes FILE --url URL: the configuration is the one the
# URL's host routes to (most specific pattern, else the default); a broken
# routes file is refused with file:line:col, a malformed URL with exit 2.
# usage: extract_routes.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$T/cfg"
printf '{"extractor": "lqf", "params": {"t": 0.1}}\n' > "$T/cfg/lqf.json"
printf '{"extractor": "alltext"}\n' > "$T/cfg/all.json"
printf '{"extractor": "density", "params": {"c1": 0.5}}\n' > "$T/cfg/density.json"
cat > "$T/routes.json" <<'JSON'
{"routes": [{"host": "*.example.com", "config": "cfg/lqf.json"},
            {"host": "deep.news.example.com", "config": "cfg/density.json"}],
 "default": "cfg/all.json"}
JSON
page=$SRC/samples/demo/cronaca/$(ls "$SRC/samples/demo/cronaca" | head -1)
same() { # URL CONFIG: extract --routes equals extract -c CONFIG
    "$CETUNE" extract --routes "$T/routes.json" --url "$1" "$page" > "$T/routed" 2>"$T/err" || fail "$1: $(cat "$T/err")"
    "$CETUNE" extract -c "$T/cfg/$2" "$page" > "$T/direct" || fail "extract -c $2"
    cmp -s "$T/routed" "$T/direct" || fail "$1 did not route to $2"
}
same "http://example.com/a" lqf.json
same "https://www.example.com:443/a?b" lqf.json
same "http://x.deep.news.example.com/" density.json
same "http://example.org/" all.json
# The three configurations really differ on this page, so routing is visible.
[ "$(md5sum < "$T/routed")" != "$("$CETUNE" extract -c "$T/cfg/lqf.json" "$page" | md5sum)" ] || fail "configs do not differ"

# Malformed URLs and missing options are usage errors.
"$CETUNE" extract --routes "$T/routes.json" --url "example.com/a" "$page" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "malformed URL 'example.com/a'" "$T/err" || fail "malformed URL: $(cat "$T/err")"
"$CETUNE" extract --routes "$T/routes.json" "$page" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q -- "--routes needs --url" "$T/err" || fail "no --url: $(cat "$T/err")"
"$CETUNE" extract --routes "$T/routes.json" -x lqf --url http://a.com/ "$page" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "only one configuration" "$T/err" || fail "two configurations: $(cat "$T/err")"
# Broken routes files: positions.
printf '{"routes": [{"host": "a.com",\n  "config": "cfg/missing.json"}]}\n' > "$T/bad.json"
"$CETUNE" extract --routes "$T/bad.json" --url http://a.com/ "$page" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "bad.json:2:13: .*missing.json" "$T/err" || fail "missing config: $(cat "$T/err")"
printf '{"routes": [{"host": "a..com", "config": "cfg/lqf.json"}]}\n' > "$T/bad.json"
"$CETUNE" extract --routes "$T/bad.json" --url http://a.com/ "$page" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q 'bad.json:1:22: host pattern "a..com" has an empty label' "$T/err" || fail "bad pattern: $(cat "$T/err")"
printf '{"routes": [{"host": "a.com", "config": "cfg/lqf.json"}]}\n' > "$T/nodefault.json"
"$CETUNE" extract --routes "$T/nodefault.json" --url http://b.com/ "$page" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "no route for host 'b.com'" "$T/err" || fail "no route: $(cat "$T/err")"
echo "extract_routes: ok"
