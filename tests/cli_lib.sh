# Helpers for CLI tests (tests/cli/*.sh): source after setting CETUNE and SRC.
# Makes the temporary directory TMP, removed on exit.  A test either counts
# its checks (ok, fail, expect_*, same_*, signal_at, then finish) or stops
# at its first failure (die).
fails=0
checks=0
TMP=$(mktemp -d /tmp/cetune-cli.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

ok() { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*" >&2; }
die() { echo "FAIL: $*"; exit 1; }
# need_corpora NAME...: sets C to the shared corpora ($CETUNE_CORPORA, else
# beside the checkout) and skips the test (exit 77) unless C holds each NAME.
need_corpora() {
  C=${CETUNE_CORPORA:-$SRC/../shared/corpora}
  local n
  for n in "$@"; do
    [ -d "$C/$n" ] || { echo "skipping: $C ($n) not found; set CETUNE_CORPORA"; exit 77; }
  done
}

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
# wait_generation DIR N PID: waits until DIR's checkpoint has generation >= N
# (at most 2 minutes: a sanitizer build under load runs folds first slowly).
wait_generation() {
  for _ in $(seq 2400); do
    g=$(generation "$1")
    if [ -n "$g" ] && [ "$g" -ge "$2" ]; then return 0; fi
    kill -0 "$3" 2>/dev/null || return 1
    sleep 0.05
  done
  return 1
}
# same_files REF DIR WHY FILE...: each FILE is the same in REF and DIR.
same_files() {
  local ref=$1 dir=$2 why=$3; shift 3
  for f in "$@"; do
    if cmp -s "$ref/$f" "$dir/$f"; then ok; else fail "$f differs $why"; fi
  done
}
# same_run REF DIR WHY: DIR holds the results of REF: best.json,
# individuals.csv, top.json, and generations.csv but for its seconds (the
# only column that differs between identical runs).
same_run() {
  same_files "$1" "$2" "$3" best.json individuals.csv top.json
  if cmp -s <(cut -d, -f1-7,9- "$1/generations.csv") <(cut -d, -f1-7,9- "$2/generations.csv"); then ok
  else fail "generations.csv differs $3"; fi
}
# signal_at SIG WATCH N CMD...: runs CMD in the background (stderr in
# $TMP/err1) and sends it signal SIG (INT, TERM) once WATCH's checkpoint
# reaches generation N; CMD must exit with 128 + the signal's number.
signal_at() {
  local sig=$1 watch=$2 n=$3; shift 3
  "$@" >/dev/null 2>"$TMP/err1" &
  local pid=$!
  if wait_generation "$watch" "$n" $pid; then ok; else fail "the run ended before $watch reached generation $n"; fi
  kill -"$sig" $pid
  wait $pid
  local st=$? want=$((128 + $(kill -l "$sig")))
  if [ $st -eq $want ]; then ok; else fail "SIG$sig: exit $st, expected $want: $*"; fi
}
# label_port LOG PID TRIES: the port a `cetune label --listen 127.0.0.1:0`
# prints to LOG, waiting up to TRIES tenths of a second while PID lives;
# empty when it never came.
label_port() {
  local port= i
  for ((i = 0; i < $3; i++)); do
    port=$(sed -n 's|.*open http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$1")
    [ -n "$port" ] && break
    kill -0 "$2" 2>/dev/null || break
    sleep 0.1
  done
  echo "$port"
}
finish() {
  echo "$((checks - fails)) passed, $fails failed"
  [ "$fails" -eq 0 ]
}
