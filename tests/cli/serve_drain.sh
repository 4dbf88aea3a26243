#!/bin/bash
# cetune serve: SIGTERM under load drains the requests in flight and exits 0.
# Every request either gets its whole, correct answer or finds the port
# closed (curl status 7); none is cut off mid-response.
# usage: serve_drain.sh CETUNE SOURCE_DIR
CETUNE=$1
SRC=$2
source "$SRC/tests/serve_lib.sh"
printf '{"extractor": "accb"}\n' > "$T/accb.json"
# A page big enough (about 1.5 MB) that requests are surely in flight.
for _ in 1 2 3; do cat "$SRC"/samples/demo/*/*.html; done > "$T/page.html"
"$CETUNE" extract -c "$T/accb.json" "$T/page.html" > "$T/want.txt"

start_server "$T/log" -c "$T/accb.json" --threads 2
# client N: requests one after another until the port is closed.
client() {
    for i in $(seq 200); do
        code=$(curl -s --max-time 30 -o "$T/out.$1" -w '%{http_code}' --data-binary @"$T/page.html" \
               "http://127.0.0.1:$PORT/extract")
        rc=$?
        if [ $rc = 7 ]; then echo refused >> "$T/result.$1"; return; fi
        if [ $rc != 0 ] || [ "$code" != 200 ] || ! cmp -s "$T/out.$1" "$T/want.txt"; then
            echo "cut: curl $rc, HTTP $code" >> "$T/result.$1"; return
        fi
        echo ok >> "$T/result.$1"
    done
}
pids=()
for c in 1 2 3 4 5 6; do client $c & pids+=($!); done
sleep 1.5
stop_server
for p in "${pids[@]}"; do wait "$p"; done
[ "$SERVE_STATUS" = 0 ] || fail "exit status $SERVE_STATUS after SIGTERM under load"
cat "$T"/result.* > "$T/all"
grep -q cut "$T/all" && fail "requests cut off: $(grep cut "$T/all" | sort | uniq -c)"
[ "$(grep -c refused "$T/all")" = 6 ] || fail "not every client ended on a closed port: $(sort "$T/all" | uniq -c)"
oks=$(grep -c ok "$T/all")
[ "$oks" -ge 6 ] || fail "only $oks complete answers"
# Some requests were in flight when SIGTERM came and were answered after it.
drained=$(sed -n '/cetune: stopping/,$p' "$T/log" | grep -c '"POST /extract" 200 ')
[ "$drained" -ge 1 ] || fail "no request was in flight at SIGTERM: $(tail -5 "$T/log")"
grep -q "cetune: stopped" "$T/log" || fail "no clean stop"
echo "serve_drain: ok ($oks answers, $drained of them after SIGTERM)"
