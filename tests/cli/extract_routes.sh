#!/bin/bash
# cetune extract --routes FILE --url URL: the configuration is the one the
# URL's host routes to (most specific pattern, else the default); a broken
# routes file is refused with file:line:col, a malformed URL with exit 2.
# usage: extract_routes.sh CETUNE SOURCE_DIR
set -u
CETUNE=$1
SRC=$2
. "$SRC/tests/cli_lib.sh"

mkdir -p "$TMP/cfg"
printf '{"extractor": "lqf", "params": {"t": 0.1}}\n' > "$TMP/cfg/lqf.json"
printf '{"extractor": "alltext"}\n' > "$TMP/cfg/all.json"
printf '{"extractor": "density", "params": {"c1": 0.5}}\n' > "$TMP/cfg/density.json"
cat > "$TMP/routes.json" <<'JSON'
{"routes": [{"host": "*.example.com", "config": "cfg/lqf.json"},
            {"host": "deep.news.example.com", "config": "cfg/density.json"}],
 "default": "cfg/all.json"}
JSON
page=$SRC/samples/demo/cronaca/$(ls "$SRC/samples/demo/cronaca" | head -1)
same() { # URL CONFIG: extract --routes equals extract -c CONFIG
    "$CETUNE" extract --routes "$TMP/routes.json" --url "$1" "$page" > "$TMP/routed" 2>"$TMP/err" || die "$1: $(cat "$TMP/err")"
    "$CETUNE" extract -c "$TMP/cfg/$2" "$page" > "$TMP/direct" || die "extract -c $2"
    cmp -s "$TMP/routed" "$TMP/direct" || die "$1 did not route to $2"
}
same "http://example.com/a" lqf.json
same "https://www.example.com:443/a?b" lqf.json
same "http://x.deep.news.example.com/" density.json
same "http://example.org/" all.json
# The three configurations really differ on this page, so routing is visible.
[ "$(md5sum < "$TMP/routed")" != "$("$CETUNE" extract -c "$TMP/cfg/lqf.json" "$page" | md5sum)" ] || die "configs do not differ"

# Malformed URLs and missing options are usage errors.
"$CETUNE" extract --routes "$TMP/routes.json" --url "example.com/a" "$page" >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "malformed URL 'example.com/a'" "$TMP/err" || die "malformed URL: $(cat "$TMP/err")"
"$CETUNE" extract --routes "$TMP/routes.json" "$page" >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q -- "--routes needs --url" "$TMP/err" || die "no --url: $(cat "$TMP/err")"
"$CETUNE" extract --routes "$TMP/routes.json" -x lqf --url http://a.com/ "$page" >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "only one configuration" "$TMP/err" || die "two configurations: $(cat "$TMP/err")"
# Broken routes files: positions.
printf '{"routes": [{"host": "a.com",\n  "config": "cfg/missing.json"}]}\n' > "$TMP/bad.json"
"$CETUNE" extract --routes "$TMP/bad.json" --url http://a.com/ "$page" >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "bad.json:2:13: .*missing.json" "$TMP/err" || die "missing config: $(cat "$TMP/err")"
printf '{"routes": [{"host": "a..com", "config": "cfg/lqf.json"}]}\n' > "$TMP/bad.json"
"$CETUNE" extract --routes "$TMP/bad.json" --url http://a.com/ "$page" >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q 'bad.json:1:22: host pattern "a..com" has an empty label' "$TMP/err" || die "bad pattern: $(cat "$TMP/err")"
printf '{"routes": [{"host": "a.com", "config": "cfg/lqf.json"}]}\n' > "$TMP/nodefault.json"
"$CETUNE" extract --routes "$TMP/nodefault.json" --url http://b.com/ "$page" >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "no route for host 'b.com'" "$TMP/err" || die "no route: $(cat "$TMP/err")"
echo "extract_routes: ok"
