#!/bin/bash
# cetune serve under limits, none of which takes the server down: a body over
# the size limit (the default 64 MB, with and without Content-Length) gets
# 413, the per-request time limit 503, slow and abandoned clients are
# disconnected after --timeout while others are served.
# usage: serve_limits.sh CETUNE SOURCE_DIR
CETUNE=$1
SRC=$2
source "$SRC/tests/serve_lib.sh"
printf '{"extractor": "lqf"}\n' > "$TMP/lqf.json"
page=$(ls "$SRC"/samples/demo/cronaca/*.html | head -1)
healthy() { [ "$(curl -s --max-time 5 "http://127.0.0.1:$PORT/health")" = ok ] || die "no /health after $1"; }

# The default limit: a 100 MB body (a sparse file) is refused before it is read.
start_server "$TMP/log" -c "$TMP/lqf.json" --threads 2 --timeout 1
B=http://127.0.0.1:$PORT
truncate -s 100M "$TMP/big"
t0=$(date +%s%N)
[ "$(curl -s --max-time 20 -o "$TMP/o" -w '%{http_code}' --data-binary @"$TMP/big" "$B/extract")" = 413 ] || die "100 MB body: not 413"
grep -q "larger than the limit of 67108864 bytes" "$TMP/o" || die "413 message: $(cat "$TMP/o")"
healthy "a 100 MB body"
rm -f "$TMP/big"

# A slow client (headers, part of a body, then silence) and one that never
# finishes its headers are disconnected after --timeout 1 s, while a normal
# client is served at once.
exec 3<>"/dev/tcp/127.0.0.1/$PORT"
printf 'POST /extract HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n<p>slow' >&3
exec 4<>"/dev/tcp/127.0.0.1/$PORT"
printf 'GET /hea' >&4
t0=$(date +%s%N)
healthy "slow clients connected"
[ "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' --data-binary @"$page" "$B/extract")" = 200 ] || die "served beside slow clients"
timeout 10 cat <&3 >/dev/null; timeout 10 cat <&4 >/dev/null
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
[ "$ms" -lt 5000 ] || die "slow clients kept for $ms ms with --timeout 1"
exec 3>&- 4>&-
# An abandoned client: half a body, then gone.
exec 3<>"/dev/tcp/127.0.0.1/$PORT"
printf 'POST /extract HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n<p>gone' >&3
exec 3>&-
sleep 0.2
healthy "an abandoned client"
stop_server
[ "$SERVE_STATUS" = 0 ] || die "exit status $SERVE_STATUS"
# Both the slow and the abandoned client are logged, without a status.
[ "$(grep -c '"POST /extract" - in=7 out=0 ms=[0-9.]* aborted=' "$TMP/log")" = 2 ] ||
    die "slow and abandoned clients not logged as aborted: $(cat "$TMP/log")"

# --max-body: exactly the limit passes; over it gets 413, with or without a length.
head -c 3000 /dev/zero | tr '\0' ' ' > "$TMP/pad"
{ printf '<p>word</p>'; head -c 989 "$TMP/pad"; } > "$TMP/1000"
{ printf '<p>word</p>'; head -c 990 "$TMP/pad"; } > "$TMP/1001"
start_server "$TMP/log2" -c "$TMP/lqf.json" --threads 1 --max-body 1000
B=http://127.0.0.1:$PORT
[ "$(curl -s --max-time 10 -o "$TMP/o" -w '%{http_code}' --data-binary @"$TMP/1000" "$B/extract")" = 200 ] || die "a body of exactly --max-body"
[ "$(cat "$TMP/o")" = word ] || die "text at the limit"
[ "$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' --data-binary @"$TMP/1001" "$B/extract")" = 413 ] || die "one byte over"
[ "$(cat "$TMP/1001" | curl -s --max-time 10 -o /dev/null -w '%{http_code}' -H 'Transfer-Encoding: chunked' \
     --data-binary @- "$B/extract")" = 413 ] || die "chunked body over the limit"
healthy "bodies over --max-body"
stop_server
[ "$SERVE_STATUS" = 0 ] || die "exit status $SERVE_STATUS"

# The time limit: an extraction that overruns gets 503, the server goes on.
start_server "$TMP/log3" -c "$TMP/lqf.json" --threads 1 --time-limit 0.000001
B=http://127.0.0.1:$PORT
[ "$(curl -s --max-time 10 -o "$TMP/o" -w '%{http_code}' --data-binary @"$page" "$B/extract")" = 503 ] || die "time limit: not 503"
grep -q "time limit of 1e-06 s exceeded" "$TMP/o" || die "503 message: $(cat "$TMP/o")"
healthy "a request over the time limit"
stop_server
[ "$SERVE_STATUS" = 0 ] || die "exit status $SERVE_STATUS"
echo "serve_limits: ok"
