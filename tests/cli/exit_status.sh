# Exit statuses (docs/cli.md): 0 success, 1 runtime error (a
# missing file, output that could not be written), 2 usage error (a
# malformed option value), the same rule in every command.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
G=$SRC/tests/data/ga

# serve --listen: a port beyond 0-65535 or a malformed address is a usage
# error, found before the server starts (getaddrinfo took 99999 modulo 65536).
for bad in 127.0.0.1:99999 127.0.0.1:65536 :-1 127.0.0.1:-1 127.0.0.1:http 127.0.0.1:80x; do
  expect_status 2 timeout 20 "$CETUNE" serve -c "$G/golden/best.json" --listen "$bad"
  expect_grep "$TMP/err" "port must be 0-65535\|must be HOST:PORT"
done
expect_status 2 timeout 20 "$CETUNE" serve -c "$G/golden/best.json" --listen 127.0.0.1:99999
expect_grep "$TMP/err" "^cetune: --listen: listen address '127.0.0.1:99999': the port must be 0-65535$"
expect_status 2 timeout 20 "$CETUNE" serve -c "$G/golden/best.json" --listen nonsense
expect_grep "$TMP/err" "must be HOST:PORT"

# A missing configuration or routes file is a runtime error, as in extract.
expect_status 1 "$CETUNE" serve -c "$TMP/nonexistent.json"
expect_grep "$TMP/err" "nonexistent.json: No such file"
expect_status 1 "$CETUNE" serve --routes "$TMP/nonexistent.json"
expect_status 1 "$CETUNE" extract -c "$TMP/nonexistent.json" "$G/corpus/news/news-1.html"
# The same file named by CETUNE_CONFIG is missing just the same: exit 1.
CETUNE_CONFIG="$TMP/nonexistent.json" expect_status 1 "$CETUNE" extract "$G/corpus/news/news-1.html"
expect_grep "$TMP/err" "nonexistent.json: No such file"
expect_grep "$TMP/err" "environment variable CETUNE_CONFIG"
CETUNE_CONFIG="$TMP/nonexistent.json" expect_status 1 "$CETUNE" serve

# Output that cannot be written (a full disk) is a runtime error for every
# command, --help and --version included.
if [ -w /dev/full ]; then
  for args in "list" "list lqf" "--version" "--help" "evolve --help" "extract --help" \
              "evaluate -x lqf -d $G/corpus"; do
    "$CETUNE" $args > /dev/full 2>"$TMP/err"
    st=$?
    if [ $st = 1 ]; then ok; else fail "cetune $args > /dev/full: exit $st, expected 1"; fi
    expect_grep "$TMP/err" "cannot write to standard output"
  done
else
  echo "skipping the /dev/full checks: /dev/full is not writable here"
fi
finish
