#!/bin/bash
# cetune serve: SIGHUP reloads the routes atomically; a broken routes file is
# refused with file:line:col and the routes in use stay; -c reloads its file.
# usage: serve_reload.sh CETUNE SOURCE_DIR
CETUNE=$1
SRC=$2
source "$SRC/tests/serve_lib.sh"
printf '{"extractor": "lqf", "params": {"t": 0.1}}\n' > "$TMP/lqf.json"
printf '{"extractor": "alltext"}\n' > "$TMP/all.json"
page=$(ls "$SRC"/samples/demo/cronaca/*.html | head -1)
"$CETUNE" extract -c "$TMP/lqf.json" "$page" > "$TMP/lqf.txt"
"$CETUNE" extract -c "$TMP/all.json" "$page" > "$TMP/all.txt"
get() { # the text for a page of http://a.example.com/
    curl -s --max-time "$SERVE_WAIT" -o "$TMP/o" -w '%{http_code}' -H 'X-Url: http://a.example.com/' --data-binary @"$page" \
        "http://127.0.0.1:$PORT/extract"
}
# hup PATTERN: SIGHUP, then wait until the log has one more line with
# PATTERN: the server logs a reload (or its refusal) once it is done, so the
# next request sees its outcome.
hup() {
    local before; before=$(grep -c "$1" "$TMP/log")
    kill -HUP "$SERVE_PID"
    local end=$((SECONDS + SERVE_WAIT))
    while [ $SECONDS -lt $end ]; do
        [ "$(grep -c "$1" "$TMP/log")" -gt "$before" ] && return 0
        kill -0 "$SERVE_PID" 2>/dev/null || die "the server died after SIGHUP: $(tail -3 "$TMP/log")"
        sleep 0.1
    done
    die "no '$1' within $SERVE_WAIT s of SIGHUP: $(tail -3 "$TMP/log")"
}

echo '{"routes": [{"host": "example.com", "config": "lqf.json"}], "default": "all.json"}' > "$TMP/routes.json"
start_server "$TMP/log" --routes "$TMP/routes.json" --threads 2
[ "$(get)" = 200 ] && cmp -s "$TMP/o" "$TMP/lqf.txt" || die "before the reload"
echo '{"routes": [{"host": "example.com", "config": "all.json"}], "default": "lqf.json"}' > "$TMP/routes.json"
hup "reloaded 2 configurations from"
[ "$(get)" = 200 ] && cmp -s "$TMP/o" "$TMP/all.txt" || die "after the reload: the new routes are not used"
printf '{"routes": [{"host": "example.com", "config": "all.json"},\n  {"host": "bad host", "config": "lqf.json"}]}\n' > "$TMP/routes.json"
hup "reload refused"
grep -q 'reload refused, the routes stay as they were: .*routes.json:2:12: host pattern "bad host"' "$TMP/log" ||
    die "refusal message: $(grep refused "$TMP/log")"
[ "$(get)" = 200 ] && cmp -s "$TMP/o" "$TMP/all.txt" || die "a broken file changed the routes"
printf '{"routes": [' > "$TMP/routes.json"
hup "reload refused"
[ "$(get)" = 200 ] && cmp -s "$TMP/o" "$TMP/all.txt" || die "a truncated file changed the routes"
[ "$(curl -s --max-time "$SERVE_WAIT" "http://127.0.0.1:$PORT/health")" = ok ] || die "health after refused reloads"
stop_server
[ "$SERVE_STATUS" = 0 ] || die "exit status $SERVE_STATUS"

# -c CONFIG.json is read again on SIGHUP too.
cp "$TMP/lqf.json" "$TMP/one.json"
start_server "$TMP/log" -c "$TMP/one.json" --threads 1
[ "$(get)" = 200 ] && cmp -s "$TMP/o" "$TMP/lqf.txt" || die "-c before the reload"
cp "$TMP/all.json" "$TMP/one.json"
hup "reloaded 1 configuration from"
[ "$(get)" = 200 ] && cmp -s "$TMP/o" "$TMP/all.txt" || die "-c after the reload"
echo '{"extractor": "nope"}' > "$TMP/one.json"
hup "reload refused"
grep -q "one.json:1:15: unknown extractor 'nope'" "$TMP/log" || die "-c refusal message"
[ "$(get)" = 200 ] && cmp -s "$TMP/o" "$TMP/all.txt" || die "a broken -c file changed the configuration"
stop_server
[ "$SERVE_STATUS" = 0 ] || die "exit status $SERVE_STATUS"
echo "serve_reload: ok"
