# libmicrohttpd's own messages go through cetune's log (docs/serve.md,
# "Log"): timestamped like the access log and at most 10 a minute, however
# many connections fail; and none at all at a normal start of serve or
# label (it warned about a zero-size thread pool at every label start).
CETUNE=$1 SRC=$2
. "$SRC/tests/serve_lib.sh"
command -v python3 >/dev/null || { echo "skipping: python3 not found"; exit 77; }

# label -v and serve --threads 1 start without a word from libmicrohttpd.
cp -r "$SRC/tests/data/ga/corpus" "$TMP/c"
"$CETUNE" label -v -d "$TMP/c" --listen 127.0.0.1:0 2>"$TMP/label.log" &
pid=$!
port=$(label_port "$TMP/label.log" $pid 600)
[ -n "$port" ] && ok || fail "label did not start: $(cat "$TMP/label.log")"
kill -TERM $pid; wait $pid
if grep -q libmicrohttpd "$TMP/label.log"; then fail "label: $(grep libmicrohttpd "$TMP/label.log")"; else ok; fi
start_server "$TMP/one.log" --threads 1
stop_server
if grep -q libmicrohttpd "$TMP/one.log"; then fail "serve --threads 1: $(grep libmicrohttpd "$TMP/one.log")"; else ok; fi

# With 40 file descriptors, 200 held connections make libmicrohttpd fail to
# accept again and again.
SERVE_LOG=$TMP/serve.log
bash -c 'ulimit -n 40; exec "$0" serve --listen 127.0.0.1:0' "$CETUNE" 2>"$SERVE_LOG" &
SERVE_PID=$!
for _ in $(seq 600); do
  PORT=$(sed -n 's|.* on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$SERVE_LOG")
  [ -n "$PORT" ] && break
  sleep 0.1
done
[ -n "$PORT" ] || die "serve did not start: $(cat "$SERVE_LOG")"
python3 - "$PORT" <<'EOF'
import socket, sys, time
held = []
for i in range(200):
    try:
        held.append(socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2))
    except OSError:
        pass
    if i % 20 == 19:
        time.sleep(0.2)  # let the server try to accept in between
time.sleep(2)
EOF
stop_server
n=$(grep -c libmicrohttpd "$SERVE_LOG")
if [ "$n" -ge 1 ]; then ok; else fail "no libmicrohttpd message to check: $(head -5 "$SERVE_LOG")"; fi
if [ "$n" -le 10 ]; then ok; else fail "$n libmicrohttpd lines in a minute, more than 10"; fi
bad=$(grep libmicrohttpd "$SERVE_LOG" | grep -cv '^[0-9]\{4\}-[0-9][0-9]-[0-9][0-9]T[0-9:]*Z libmicrohttpd: ')
if [ "$bad" = 0 ]; then ok; else fail "$bad libmicrohttpd lines without the log's timestamp: $(grep libmicrohttpd "$SERVE_LOG" | head -3)"; fi
finish
