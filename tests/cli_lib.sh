# Helpers for CLI tests (tests/cli/*.sh): source after setting CETUNE and SRC.
fails=0
checks=0
TMP=$(mktemp -d /tmp/cetune-cli.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

ok() { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*" >&2; }

# expect_status CODE CMD...: runs CMD, keeps stdout/stderr in $TMP/out, $TMP/err.
expect_status() {
  local want=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" -eq "$want" ]; then ok; else fail "exit $got, expected $want: $*"; sed 's/^/  stderr: /' "$TMP/err" | head -5 >&2; fi
}
expect_grep() { # expect_grep FILE PATTERN
  if grep -q -- "$2" "$1"; then ok; else fail "'$2' not in $1"; sed 's/^/  | /' "$1" | head -8 >&2; fi
}
# The generation of DIR's last checkpoint, empty before the first.
generation() { sed -n 's/^[[:space:]]*"generation":[[:space:]]*\(-\{0,1\}[0-9]*\),$/\1/p' "$1/checkpoint.json" 2>/dev/null; }
# wait_generation DIR N PID: waits until DIR's checkpoint has generation >= N.
wait_generation() {
  for _ in $(seq 600); do
    g=$(generation "$1")
    if [ -n "$g" ] && [ "$g" -ge "$2" ]; then return 0; fi
    kill -0 "$3" 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}
finish() {
  echo "$((checks - fails)) passed, $fails failed"
  [ "$fails" -eq 0 ]
}
