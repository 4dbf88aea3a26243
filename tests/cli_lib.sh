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
finish() {
  echo "$((checks - fails)) passed, $fails failed"
  [ "$fails" -eq 0 ]
}
