#!/bin/bash
# cetune serve: SIGHUP reloads the routes atomically; a broken routes file is
# refused with file:line:col and the routes in use stay; -c reloads its file.
# usage: serve_reload.sh CETUNE SOURCE_DIR
CETUNE=$1
SRC=$2
source "$SRC/tests/serve_lib.sh"
printf '{"extractor": "lqf", "params": {"t": 0.1}}\n' > "$T/lqf.json"
printf '{"extractor": "alltext"}\n' > "$T/all.json"
page=$(ls "$SRC"/samples/demo/cronaca/*.html | head -1)
"$CETUNE" extract -c "$T/lqf.json" "$page" > "$T/lqf.txt"
"$CETUNE" extract -c "$T/all.json" "$page" > "$T/all.txt"
get() { # the text for a page of http://a.example.com/
    curl -s --max-time 10 -o "$T/o" -w '%{http_code}' -H 'X-Url: http://a.example.com/' --data-binary @"$page" \
        "http://127.0.0.1:$PORT/extract"
}
# hup PATTERN: SIGHUP, then wait (at most 10 s) for PATTERN in the log.
hup() {
    local before; before=$(grep -c "$1" "$T/log")
    kill -HUP "$SERVE_PID"
    for _ in $(seq 100); do
        [ "$(grep -c "$1" "$T/log")" -gt "$before" ] && return 0
        sleep 0.1
    done
    fail "no '$1' after SIGHUP: $(tail -3 "$T/log")"
}

echo '{"routes": [{"host": "example.com", "config": "lqf.json"}], "default": "all.json"}' > "$T/routes.json"
start_server "$T/log" --routes "$T/routes.json" --threads 2
[ "$(get)" = 200 ] && cmp -s "$T/o" "$T/lqf.txt" || fail "before the reload"
echo '{"routes": [{"host": "example.com", "config": "all.json"}], "default": "lqf.json"}' > "$T/routes.json"
hup "reloaded 2 configurations from"
[ "$(get)" = 200 ] && cmp -s "$T/o" "$T/all.txt" || fail "after the reload: the new routes are not used"
printf '{"routes": [{"host": "example.com", "config": "all.json"},\n  {"host": "bad host", "config": "lqf.json"}]}\n' > "$T/routes.json"
hup "reload refused"
grep -q 'reload refused, the routes stay as they were: .*routes.json:2:12: host pattern "bad host"' "$T/log" ||
    fail "refusal message: $(grep refused "$T/log")"
[ "$(get)" = 200 ] && cmp -s "$T/o" "$T/all.txt" || fail "a broken file changed the routes"
printf '{"routes": [' > "$T/routes.json"
hup "reload refused"
[ "$(get)" = 200 ] && cmp -s "$T/o" "$T/all.txt" || fail "a truncated file changed the routes"
[ "$(curl -s --max-time 5 "http://127.0.0.1:$PORT/health")" = ok ] || fail "health after refused reloads"
stop_server
[ "$SERVE_STATUS" = 0 ] || fail "exit status $SERVE_STATUS"

# -c CONFIG.json is read again on SIGHUP too.
cp "$T/lqf.json" "$T/one.json"
start_server "$T/log" -c "$T/one.json" --threads 1
[ "$(get)" = 200 ] && cmp -s "$T/o" "$T/lqf.txt" || fail "-c before the reload"
cp "$T/all.json" "$T/one.json"
hup "reloaded 1 configuration from"
[ "$(get)" = 200 ] && cmp -s "$T/o" "$T/all.txt" || fail "-c after the reload"
echo '{"extractor": "nope"}' > "$T/one.json"
hup "reload refused"
grep -q "one.json:1:15: unknown extractor 'nope'" "$T/log" || fail "-c refusal message"
[ "$(get)" = 200 ] && cmp -s "$T/o" "$T/all.txt" || fail "a broken -c file changed the configuration"
stop_server
[ "$SERVE_STATUS" = 0 ] || fail "exit status $SERVE_STATUS"
echo "serve_reload: ok"
