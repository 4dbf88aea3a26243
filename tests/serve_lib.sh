# Helpers for the cetune serve tests (tests/cli/serve_*.sh), on top of
# cli_lib.sh: source after setting CETUNE and SRC.  Servers listen on a free
# loopback port and are stopped by the tests themselves, or killed on exit.
set -u
. "$SRC/tests/cli_lib.sh"
SERVE_PID=
SERVE_LOG=
PORT=
# How long, in seconds, a wait for the server may last before the test
# fails: generous for a loaded machine or a sanitizer build, since every
# wait ends as soon as what it waits for is seen.
SERVE_WAIT=120
# start_server LOG ARGS...: starts `cetune serve ARGS --listen 127.0.0.1:0`,
# waits until it listens and sets SERVE_PID, PORT and SERVE_LOG.  LOG is
# emptied here, not by the background job's redirection, which may come
# late: a LOG of an earlier server would give that server's port.
start_server() {
    SERVE_LOG=$1; shift
    : >"$SERVE_LOG"
    "$CETUNE" serve "$@" --listen 127.0.0.1:0 2>"$SERVE_LOG" &
    SERVE_PID=$!
    local end=$((SECONDS + SERVE_WAIT))
    while [ $SECONDS -lt $end ]; do
        PORT=$(sed -n 's|.* on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$SERVE_LOG")
        [ -n "$PORT" ] && return 0
        kill -0 "$SERVE_PID" 2>/dev/null || break
        sleep 0.1
    done
    die "the server did not start within $SERVE_WAIT s: $(cat "$SERVE_LOG")"
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
