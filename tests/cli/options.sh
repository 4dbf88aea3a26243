# Option tables (src/cli/cli.h): --help, usage errors, --version and the man
# page all come from the same rows, so every option is described everywhere.
CETUNE=$1 SRC=$2
. "$SRC/tests/cli_lib.sh"
MAN=$(dirname "$CETUNE")/cetune.1

# Every command that `cetune --help` lists.
commands=$("$CETUNE" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
if [ "$(echo $commands | wc -w)" -ge 6 ]; then ok; else fail "cetune --help lists: $commands"; fi
for cmd in $commands; do
  expect_status 0 "$CETUNE" $cmd --help
  expect_grep "$TMP/out" "^usage: cetune $cmd"
  # Every option of the usage line has a line of help: "--name ARG  text".
  for o in $(sed -n '/^usage/,/^$/p' "$TMP/out" | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    if grep -qE -- "^  (-[a-zA-Z], |    )$o( [^ ]+)?  +[a-z]" "$TMP/out" ||
       grep -A1 -E -- "^  (-[a-zA-Z], |    )$o( [^ ]+)?$" "$TMP/out" | grep -qE '^ {32}[a-z]'; then ok
    else fail "$cmd --help: no help for $o"; fi
    if grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')" "$MAN"; then ok; else fail "$o of $cmd not in cetune.1"; fi
  done
done
# Defaults are shown, and they are the ones the run uses.
"$CETUNE" evolve --help > "$TMP/help"
expect_grep "$TMP/help" 'default: the strategy.s own: ga 20, cmaes 4 + 3 ln'
expect_grep "$TMP/help" '--generations N .*0: no limit'
expect_grep "$TMP/help" 'threads.*0: all cores'
expect_grep "$TMP/help" '(default: tournament)'
if [ "$(grep -cE -- "^  (-., |    )--" "$TMP/help")" -ge 30 ]; then ok; else fail "evolve --help lists fewer than 30 options"; fi

# Usage errors: exit 2, what is wrong in one line, and where to look: two
# lines in all, not the synopsis.
expect_status 2 "$CETUNE" evolve --select roulette
expect_grep "$TMP/err" "--select must be one of tournament|truncation, not 'roulette'"
expect_grep "$TMP/err" "^cetune: see 'cetune evolve --help'$"
if [ "$(wc -l < "$TMP/err")" = 2 ]; then ok; else fail "a usage error printed $(wc -l < "$TMP/err") lines, not 2"; fi
expect_status 2 "$CETUNE" evolve -p "$SRC/params/lqf.json"
if [ "$(wc -l < "$TMP/err")" = 2 ]; then ok; else fail "evolve without -d printed $(wc -l < "$TMP/err") lines, not 2"; fi
expect_status 2 "$CETUNE" evaluate --metric bytes -x alltext -d x
expect_grep "$TMP/err" "word|chars|lcstring"
expect_status 2 "$CETUNE" evolve --pop
expect_grep "$TMP/err" 'option --pop needs a value'
expect_status 2 "$CETUNE" evolve --pop 2x
expect_grep "$TMP/err" "--pop expects a whole number from 2 to 1000000, got '2x'"
# The range said is the range taken: 1 is refused by the option, 2 is not.
expect_status 2 "$CETUNE" evolve --pop 1 -p "$SRC/params/lqf.json" -d "$SRC/samples/demo"
expect_grep "$TMP/err" "--pop expects a whole number from 2 to 1000000, got '1'"
expect_status 2 "$CETUNE" evolve --tournament 0 -p "$SRC/params/lqf.json" -d "$SRC/samples/demo"
expect_grep "$TMP/err" "--tournament expects a whole number from 1 to"
expect_status 2 "$CETUNE" sample --nope
expect_grep "$TMP/err" "unknown option '--nope'"
expect_status 2 "$CETUNE" report a b
expect_status 2 "$CETUNE" evolve --resume x --seed 3
expect_grep "$TMP/err" 'only --threads, --quiet, --progress may be given with it, not --seed'

# cetune list lines its columns up, the longest name (ignore_nonlink_images) included.
expect_status 0 "$CETUNE" list
cols=$(awk '/^    / { print index($0, " default ") }' "$TMP/out" | sort -u)
if [ "$(echo "$cols" | wc -l)" -eq 1 ]; then ok; else fail "cetune list: 'default' at columns $(echo $cols)"; fi
cols=$(awk '/^    .* (range|values) / { print index($0, " range ") + index($0, " values ") }' "$TMP/out" | sort -u)
if [ "$(echo "$cols" | wc -l)" -eq 1 ]; then ok; else fail "cetune list: ranges at columns $(echo $cols)"; fi
expect_grep "$TMP/out" '^    ignore_nonlink_images '

# --version: cetune and every library.
expect_status 0 "$CETUNE" --version
for lib in cetune libxml2 GSL cJSON utf8proc zlib OpenMP; do
  expect_grep "$TMP/out" "^$lib  *[0-9]"
done
# libmicrohttpd, which serve opens when it starts: its version, or why not.
expect_grep "$TMP/out" "^libmicrohttpd  *\([0-9]\|not found: \)"

# The man page is built, well formed, and documents every command.
if [ -s "$MAN" ]; then ok; else fail "no $MAN"; fi
for cmd in $commands; do expect_grep "$MAN" "^\.SS cetune $cmd"; done
if command -v groff >/dev/null; then
  groff -man -ww -z "$MAN" 2>"$TMP/groff"
  if [ -s "$TMP/groff" ]; then fail "groff warnings: $(head -3 "$TMP/groff")"; else ok; fi
fi
finish
