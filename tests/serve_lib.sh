# Helpers for the cetune serve tests (tests/cli/serve_*.sh), on top of
# cli_lib.sh: source after setting CETUNE and SRC.  Servers listen on a free
# loopback port and are stopped by the tests themselves, or killed on exit.
set -u
. "$SRC/tests/cli_lib.sh"
SERVE_PID=
SERVE_LOG=
PORT=
# start_server LOG ARGS...: starts `cetune serve ARGS --listen 127.0.0.1:0`,
# waits until it listens (at most 10 s) and sets SERVE_PID, PORT and SERVE_LOG.
start_server() {
    SERVE_LOG=$1; shift
    "$CETUNE" serve "$@" --listen 127.0.0.1:0 2>"$SERVE_LOG" &
    SERVE_PID=$!
    for _ in $(seq 100); do
        PORT=$(sed -n 's|.* on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$SERVE_LOG")
        [ -n "$PORT" ] && return 0
        kill -0 "$SERVE_PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "FAIL: the server did not start:"; cat "$SERVE_LOG"; exit 1
}
# stop_server: SIGTERM, then the exit status of the server in $SERVE_STATUS.
stop_server() {
    kill -TERM "$SERVE_PID"
    wait "$SERVE_PID"
    SERVE_STATUS=$?
    SERVE_PID=
}
kill_server() { [ -z "$SERVE_PID" ] || kill -KILL "$SERVE_PID" 2>/dev/null; }
trap 'kill_server; rm -rf "$TMP"' EXIT
